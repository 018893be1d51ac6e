"""From a Decision to a report: per-section content, claims, labels, charts and rendering."""
