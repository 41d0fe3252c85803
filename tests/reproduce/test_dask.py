"""``refsvm reproduce --backend dask``: the same numbers as one local worker.

Runs where ``dask.distributed`` is installed (the ``dask`` extra, also named
``cluster``); CI installs it, and its ``REFSVM_EXTRAS`` makes a missing Dask a
failure there instead of a skip.
The cluster is a ``LocalCluster`` bound to the loopback interface: two worker
processes, one thread each, reached through its scheduler address exactly as
``--scheduler tcp://HOST:PORT`` reaches a remote one.
"""

import io
import os

import pytest

from refsvm.reproduce import reproduce

if "dask" in os.environ.get("REFSVM_EXTRAS", "").split(","):   # .ci/run installed the extra: must be there
    import distributed
else:
    distributed = pytest.importorskip("distributed")


def test_dask_cluster_gives_the_numbers_of_one_worker():
    if not os.environ.get("REFSVM_DATA"):
        pytest.skip("REFSVM_DATA is not set; data set 'german' unavailable")
    local = reproduce("lu2016-table5", quick=True, n_jobs=1, datasets=["german"], out=io.StringIO())
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, processes=True) as cluster:
        remote = reproduce("lu2016-table5", quick=True, n_jobs=2, backend="dask",
                           scheduler=cluster.scheduler_address, datasets=["german"], out=io.StringIO())
    assert [r["algorithm"] for r in local["rows"]] == [r["algorithm"] for r in remote["rows"]]
    for a, b in zip(local["rows"], remote["rows"]):
        if not a["available"]:
            continue
        assert a["chosen"] == b["chosen"]
        assert [s["error"] for s in a["per_seed"]] == [s["error"] for s in b["per_seed"]]
