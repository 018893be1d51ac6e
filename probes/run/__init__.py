"""Orchestration: plan, workers, interleaved rounds, cache and the run's environment."""
