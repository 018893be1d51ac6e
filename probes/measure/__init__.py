"""Timing, robust statistics, calibration and cross-framework comparison (standard library)."""
