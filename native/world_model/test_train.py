"""train.py's sample mix: per-epoch shares by domain and kind, and by file (--source-share),
which stage 5 uses to replay the earlier data at a fraction of the new."""
import json
import random
import subprocess
import sys
from pathlib import Path

from world_model import train

HERE = Path(__file__).parent


def write_samples(path, domain, kind, n):
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            f.write(json.dumps({"id": f"{path.stem}-{i}", "domain": domain, "kind": kind, "split": "train" if i % 10 else "test",
                                "ids": [1] * (20 + i % 7), "spans": [[10, 20]]}) + "\n")


def test_samples_know_their_file(tmp_path):
    write_samples(tmp_path / "a.jsonl", "terminal", "session", 30)
    samples = train.load_samples(str(tmp_path / "a.jsonl"), "train")
    assert len(samples) == 27 and {s["source"] for s in samples} == {"a.jsonl"}


def test_compressed_samples_read_as_the_plain_file(tmp_path):
    # How samples travel to a lent GPU machine: .gz or .xz, read without unpacking first.
    import gzip
    import lzma

    write_samples(tmp_path / "a.jsonl", "terminal", "session", 30)
    plain = (tmp_path / "a.jsonl").read_bytes()
    (tmp_path / "a.jsonl.gz").write_bytes(gzip.compress(plain))
    (tmp_path / "a.jsonl.xz").write_bytes(lzma.compress(plain))
    expected = [{k: v for k, v in s.items() if k != "source"} for s in train.load_samples(str(tmp_path / "a.jsonl"), "test")]
    for name in ("a.jsonl.gz", "a.jsonl.xz"):
        samples = train.load_samples(str(tmp_path / name), "test")
        assert [{k: v for k, v in s.items() if k != "source"} for s in samples] == expected
        assert {s["source"] for s in samples} == {name}


def test_a_file_share_multiplies_the_domain_and_kind_share():
    sample = {"domain": "terminal", "kind": "control", "source": "old.jsonl"}
    assert train.share_of(sample, {"terminal": 1.0}) == 1.0
    assert train.share_of(sample, {"terminal": 1.0, "terminal/control": 0.4}) == 0.4
    assert train.share_of(sample, {"terminal": 1.0, "terminal/control": 0.4, "file:old.jsonl": 0.5}) == 0.2
    assert train.share_of({**sample, "source": "new.jsonl"}, {"terminal/control": 0.4, "file:old.jsonl": 0.5}) == 0.4


def test_batches_take_each_file_at_its_share(tmp_path):
    write_samples(tmp_path / "new.jsonl", "terminal", "session", 2000)
    write_samples(tmp_path / "old.jsonl", "terminal", "session", 2000)
    samples = train.load_samples(str(tmp_path / "new.jsonl"), "train") + train.load_samples(str(tmp_path / "old.jsonl"), "train")
    batches = train.make_batches(samples, random.Random(3), 400, {"terminal": 1.0, "file:old.jsonl": 0.25})
    taken = [s["source"] for b in batches for s in b]
    assert taken.count("new.jsonl") == 1800
    assert 0.2 < taken.count("old.jsonl") / 1800 < 0.3


def run_train(tmp_path, *options):
    """train.py on a tiny sample file, as far as its command line goes."""
    write_samples(tmp_path / "new.jsonl", "terminal", "session", 20)
    (tmp_path / "tok").mkdir()
    (tmp_path / "tok" / "tokenizer.json").write_text("{}")
    return subprocess.run([sys.executable, "-m", "world_model.train", str(tmp_path / "new.jsonl"), str(tmp_path / "tok"), str(tmp_path / "out"), *options],
                          capture_output=True, text=True)


def test_a_share_for_a_file_not_in_the_run_is_refused(tmp_path):
    result = run_train(tmp_path, "--source-share", "samples.jsonl=0.5")
    assert result.returncode == 2
    assert "samples.jsonl is not one of the sample files of this run" in result.stderr


def test_a_share_that_is_not_a_number_is_a_usage_error(tmp_path):
    result = run_train(tmp_path, "--source-share", "new.jsonl=half")
    assert result.returncode == 2
    assert "the share is a number of 0 or more" in result.stderr
