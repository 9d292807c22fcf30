"""The terminal front end: the ``pendragon`` command, the play loop and the renderers."""
