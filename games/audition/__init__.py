"""The Audition plug-in: everything about Audition outside :mod:`parlour.envs.audition`."""
