"""dbench-history: the run history that dbench --label saves (SQLite),
listed, compared, followed over time and reported as HTML."""
