"""The README's Dask recipe: the same kernel in ``map_partitions`` gives the same rows as one process."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from batch_rows import BAD_ROWS, as_json_sources, make_rows
from ragaudit.kernel import BatchConfig, audit_batches, output_schema

dd = pytest.importorskip("dask.dataframe")


def test_dask_map_partitions_runs_the_kernel(tmp_path: Path) -> None:
    import dask

    rows = as_json_sources(make_rows(40) + BAD_ROWS)
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "logs.parquet")
    # --- the recipe, as in the README ---
    config = BatchConfig()

    def audit_partition(frame):  # type: ignore[no-untyped-def]
        return next(audit_batches([frame], config))

    logs = dd.read_parquet(str(tmp_path / "logs.parquet")).repartition(npartitions=4)
    meta = output_schema(config).empty_table().to_pandas()
    reports = logs.map_partitions(audit_partition, meta=meta)
    reports.to_parquet(str(tmp_path / "reports.parquet"))
    # ---
    with dask.config.set(scheduler="synchronous"):
        got = dd.read_parquet(str(tmp_path / "reports.parquet")).compute()
    expected = next(audit_batches([pa.RecordBatch.from_pylist(rows)], config)).to_pandas()
    assert sorted(got["request_hash"]) == sorted(expected["request_hash"])
    merged = got.merge(expected, on="request_hash", suffixes=("", "_one"))
    assert (merged["label"].fillna("-") == merged["label_one"].fillna("-")).all()
    assert merged["error"].notna().sum() == len(BAD_ROWS)
