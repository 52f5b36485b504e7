"""The Awkward Guests plug-in: everything about it outside :mod:`parlour.envs.awkward_guests`."""
