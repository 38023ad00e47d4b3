"""Audit Spark DataFrames with the batch kernel (``pip install 'ragaudit[spark]'``).

>>> from ragaudit import spark as ragaudit_spark                            # doctest: +SKIP
>>> reports = ragaudit_spark.audit(spark.read.parquet("logs.parquet"))      # doctest: +SKIP
>>> reports.write.parquet("reports.parquet")                                # doctest: +SKIP

The kernel runs in ``mapInArrow``: each executor's Python worker builds the auditor once and keeps
it for every partition it is given. Executors need ragaudit installed (the same version as the driver).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ragaudit.errors import ConfigError, require_extra
from ragaudit.kernel import BatchConfig, output_schema

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql import DataFrame, SparkSession

COMMITTER = {"mapreduce.fileoutputcommitter.algorithm.version": "2"}
"""Each task's part is moved into the output when the task ends (not when the job ends), so the parts
of finished tasks survive a killed job and a resumed run skips them."""


def _pyspark() -> None:
    require_extra("pyspark", what="the spark engine", extra="spark")


def audit(
    df: DataFrame,
    config: BatchConfig | None = None,
    *,
    skip: frozenset[str] = frozenset(),
    partitions: int | None = None,
) -> DataFrame:
    """A DataFrame of the kernel's flat output (one row per input row not in ``skip``), lazily.

    Args:
        df: Input rows with ``answer`` and ``sources`` columns (and optionally ``question``, ``id``;
            names are mapped by ``config.columns``).
        config: Judge options, column mapping and columns to keep.
        skip: Request hashes to leave out (those already in the output of a resumed run).
        partitions: Repartition to this many partitions first; default: at least twice the
            default parallelism, so every core has work even when the input is one file.
    """
    _pyspark()
    from pyspark.sql.pandas.types import from_arrow_schema, to_arrow_schema

    config = config or BatchConfig()
    df = df.select(*config.input_columns(df.columns))
    schema = from_arrow_schema(output_schema(config, to_arrow_schema(df.schema)))
    spark = df.sparkSession
    wanted = partitions or 2 * spark.sparkContext.defaultParallelism
    if partitions is not None or df.rdd.getNumPartitions() < wanted:
        df = df.repartition(wanted)
    shared = spark.sparkContext.broadcast(skip) if skip else None

    def audit_partition(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from ragaudit.kernel import audit_batches

        yield from audit_batches(batches, config, skip=shared.value if shared is not None else frozenset())

    return df.mapInArrow(audit_partition, schema)


def session(master: str, app_name: str = "ragaudit") -> SparkSession:
    """A Spark session on ``master`` (``local[2]``, ``spark://…``, ``yarn``, ``k8s://…``)."""
    _pyspark()
    from pyspark.sql import SparkSession

    if master.startswith("local"):  # local workers must run this interpreter, where ragaudit is installed
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    return (
        SparkSession.builder.master(master)
        .appName(app_name)
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )


def read_table(spark: SparkSession, path: Path) -> DataFrame:
    """Read Parquet (file or directory) or JSON Lines into a DataFrame."""
    from ragaudit.tables import table_format

    if not path.exists():
        raise ConfigError(f"{path}: no such file or directory")
    if table_format(path) == "jsonl":
        return spark.read.json(str(path))
    return spark.read.parquet(str(path))


def existing_keys(spark: SparkSession, out: Path) -> frozenset[str]:
    """Request hashes already in the output directory (empty when there is none)."""
    if not out.exists() or not any(out.glob("*.parquet")):
        return frozenset()
    rows = spark.read.parquet(str(out)).select("request_hash").toArrow()
    return frozenset(str(key) for key in rows.column("request_hash").to_pylist())


def run(
    spark: SparkSession,
    source: Path,
    out: Path,
    config: BatchConfig,
    *,
    mode: Literal["new", "resume", "overwrite"] = "new",
    partitions: int | None = None,
) -> tuple[int, int]:
    """Audit ``source`` into the Parquet directory ``out``; return (rows written now, rows skipped)."""
    from ragaudit.tables import table_format

    if out.suffix.lower() in (".jsonl", ".json", ".ndjson") or (out.exists() and out.is_file()):
        raise ConfigError(f"{out}: the spark engine writes a directory of Parquet parts; give --out NAME.parquet")
    table_format(source)
    if out.is_dir():
        strangers = [p.name for p in out.iterdir() if p.suffix != ".parquet" and not p.name.startswith((".", "_"))]
        if strangers:
            raise ConfigError(f"{out} holds files that are not report parts ({strangers[0]} …); give another --out")
    done = existing_keys(spark, out)
    if done and mode == "new":
        raise ConfigError(
            f"{out} already holds reports; pass --resume to audit only the rows missing from it, or --overwrite"
        )
    skip = done if mode == "resume" else frozenset()
    before = len(done) if mode == "resume" else 0
    df = read_table(spark, source)
    result = audit(df, config, skip=skip, partitions=partitions)
    # "overwrite" replaces only report parts and the leftovers of a killed job (checked above)
    writer = result.write.mode("append" if mode == "resume" else "overwrite")
    for key, value in COMMITTER.items():
        writer = writer.option(key, value)
    writer.parquet(str(out))
    total = spark.read.parquet(str(out)).count()
    return total - before, df.count() - (total - before) if mode == "resume" else 0


def summary_table(spark: SparkSession, out: Path, columns: Sequence[str]) -> pa.Table:
    """The narrow columns of the output that the summary needs, collected to the driver."""
    return spark.read.parquet(str(out)).select(*columns).toArrow()
