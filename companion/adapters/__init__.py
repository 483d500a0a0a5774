"""What the app keeps and draws: the database, its stores, the sheets."""
