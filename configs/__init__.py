"""The shipped training configs (``parlour train audition_2p`` finds them by name)."""
