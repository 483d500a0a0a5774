"""What the app keeps outside itself: databases, stores, files and queues."""
