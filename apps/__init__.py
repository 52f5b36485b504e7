"""The applications: the ``parlour`` command line, terminal play, the web table, model administration."""
