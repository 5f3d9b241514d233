"""A trained policy as plain arrays: a multilayer perceptron over the observation encoding,
run with numpy alone (no torch needed to play it).

A checkpoint is a ``.npz`` file holding:

- ``setup``: JSON of ``{"edition", "players", "options"}``, the setup it was trained for;
- ``digest``: the :meth:`~citadels.rl.actions.ActionSpace.digest` of that setup's numbering
  (a checkpoint refuses to play under another numbering);
- ``transform``: how observations are scaled before the first layer (``"log1p"`` or
  ``"none"``);
- ``w0``, ``b0``, ``w1``, ``b1``, …: the layers, ``tanh`` between them; the last one gives a
  logit per numbered action.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from citadels.rl.actions import ActionSpace
from citadels.rl.observation import ObservationEncoder

TRANSFORMS = ("log1p", "none")


def transform(obs: npt.NDArray[np.float32], kind: str) -> npt.NDArray[np.float32]:
    """Scale an encoded observation as the policy was trained to read it."""
    if kind == "log1p":
        return np.log1p(obs)
    return obs


class Policy:
    """A multilayer perceptron from encoded observations to action logits."""

    def __init__(
        self,
        setup: dict[str, Any],
        layers: Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
        transform: str = "log1p",
    ) -> None:
        if transform not in TRANSFORMS:
            raise ValueError(f"transform must be one of {TRANSFORMS}, not {transform!r}")
        self.setup = setup
        self.space = ActionSpace.for_setup(
            setup["edition"], setup["players"], **setup.get("options", {})
        )
        self.encoder = ObservationEncoder(self.space)
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.transform = transform
        if self.layers[0][0].shape[0] != self.encoder.size:
            raise ValueError(
                f"the first layer reads {self.layers[0][0].shape[0]} inputs, the setup's "
                f"observations have {self.encoder.size}"
            )
        if self.layers[-1][0].shape[1] != self.space.size:
            raise ValueError(
                f"the last layer gives {self.layers[-1][0].shape[1]} logits, the setup numbers "
                f"{self.space.size} actions"
            )

    def logits(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The action logits of one encoded observation (or a batch of them)."""
        x = transform(obs, self.transform)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                x = np.tanh(x)
        return x

    def save(self, path: str | Path) -> None:
        """Write the checkpoint (see the module docstring)."""
        arrays: dict[str, Any] = {
            "setup": np.array(json.dumps(self.setup, sort_keys=True)),
            "digest": np.array(self.space.digest()),
            "transform": np.array(self.transform),
        }
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = w.astype(np.float16)
            arrays[f"b{i}"] = b.astype(np.float16)
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        """Read a checkpoint; ``ValueError`` if its numbering is not today's."""
        with np.load(path, allow_pickle=False) as data:
            setup = json.loads(str(data["setup"]))
            layers = []
            i = 0
            while f"w{i}" in data:
                layers.append((data[f"w{i}"], data[f"b{i}"]))
                i += 1
            policy = cls(setup, layers, str(data["transform"]))
            if str(data["digest"]) != policy.space.digest():
                raise ValueError(
                    f"{path}: the checkpoint was trained under another action numbering "
                    "of its setup"
                )
        return policy
