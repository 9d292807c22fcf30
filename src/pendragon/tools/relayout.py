"""Record a shipped model's observation layouts again after a rules change that left the
observation tensor's writer alone.

A model records, for each setup it was trained on, the tensor's size and the hash of a
reference game's tensors (:func:`pendragon.bots.evaluator.layout_fingerprint`); a test fails
when they change, so that no model reads a layout it was not trained on. A rules fix can
change the reference game's *path* (its first legal actions lead elsewhere) while every
tensor entry keeps its meaning; then, and only then, the fingerprints may be recorded again
instead of retraining. This tool refuses a setup whose tensor size changed (a new layout
needs ``pendragon train``) and writes, beside the new fingerprints, ``layout_refreshed``:
the date and the reason given, so the model says what was done to it.

    python -m pendragon.tools.relayout soc --reason "rules fixes; the tensor writer unchanged"
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Sequence

import pendragon
from pendragon.bots.evaluator import Model, layout_fingerprint, load_model
from pendragon.training import default_out, write_model


def relayout(model: Model, reason: str, date: str) -> tuple[Model, list[str]]:
    """``model`` with every setup's layout recorded anew, and the setups whose hash changed.

    ``ValueError`` when a setup's tensor size changed: that is a new layout, not a new path.
    """
    metadata = dict(model.metadata)
    layouts = dict(metadata["layout"])
    changed = []
    for key, entry in metadata["setups"].items():
        now = layout_fingerprint(pendragon.load_game(model.game, **{**entry["options"],
                                                                     "seed": 0}))
        then = layouts.get(key)
        if then is not None and then["tensor_size"] != now["tensor_size"]:
            raise ValueError(f"{key}: the tensor's size changed ({then['tensor_size']} ->"
                             f" {now['tensor_size']}): retrain with `pendragon train`")
        if then != now:
            changed.append(key)
        layouts[key] = now
    metadata["layout"] = layouts
    if changed:
        metadata["layout_refreshed"] = {"date": date, "reason": reason, "setups": len(changed)}
    networks = list(model.networks.values())
    return Model(model.game, model.setup_names, networks, metadata), changed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pendragon.tools.relayout",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--reason", required=True,
                        help="why the tensor's meaning is unchanged (kept in the model)")
    args = parser.parse_args(argv)
    path = default_out(args.game)
    try:
        model, changed = relayout(load_model(path), args.reason,
                                  datetime.date.today().isoformat())
    except ValueError as error:
        print(f"relayout: {error}", file=sys.stderr)
        return 2
    if changed:
        write_model(model, path)
    print(f"{len(changed)} setup(s) recorded anew in {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
