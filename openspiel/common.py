"""What both OpenSpiel games share: their game type and their observers' named tensors.

| name | what |
|---|---|
| :func:`game_type` | the ``pyspiel.GameType`` of a parlour game: sequential, explicit chance, imperfect information, terminal rewards, every string and tensor provided |
| :func:`check_observation_type` | refuse an ``IIGObservationType`` other than one player's view |
| :func:`named_tensor` | one flat ``float32`` tensor and its named, reshaped views (an observer's ``tensor`` and ``dict``) |
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel


def game_type(
    short_name: str,
    long_name: str,
    players: tuple[int, int],
    parameters: dict[str, Any],
    utility: pyspiel.GameType.Utility = pyspiel.GameType.Utility.ZERO_SUM,
) -> pyspiel.GameType:
    """The game type of a parlour game for ``players`` = (fewest, most)."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def check_observation_type(game_name: str, iig_obs_type: pyspiel.IIGObservationType) -> None:
    """``ValueError`` unless ``iig_obs_type`` is one player's view (public information and
    the player's own private information, with or without perfect recall)."""
    if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not (
        iig_obs_type.public_info
    ):
        raise ValueError(
            f"{game_name}: observers give one player's view (public information and the "
            "player's own private information); got another IIGObservationType"
        )


def named_tensor(
    shapes: list[tuple[str, tuple[int, ...]]],
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """A zero ``float32`` tensor of all ``shapes`` in order, and each piece's view by name."""
    tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in shapes), np.float32)
    views: dict[str, np.ndarray] = {}
    start = 0
    for name, shape in shapes:
        stop = start + int(np.prod(shape))
        views[name] = tensor[start:stop].reshape(shape)
        start = stop
    return tensor, views
