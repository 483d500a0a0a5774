"""What the app keeps and talks to outside itself: storage, the render queue, PDF files."""
