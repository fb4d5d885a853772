"""The demo dataset (demo.xml): sentences written for this project, in the task's format."""
