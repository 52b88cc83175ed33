"""Numbered schema revisions: 0001_initial.py, 0002_....py, ..."""
