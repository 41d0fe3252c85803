"""Lu et al.'s Table 5, its unbudgeted rows on w8a and ijcnn1 (lu2016-table5-unbudgeted): the quick run, and the
reasons of lu2016-table5's flagged Perceptron and OGD rows against the committed evidence."""

from _helpers import quick_reproduce

from refsvm.reproduce.driver import tables

U = "lu2016-table5-unbudgeted"


def test_quick_run(tmp_path):
    """--quick on 2 jobs in under 2 minutes: lu2016-table5's Perceptron row as it is, OGD at eta = 2 and at the
    released code's eta = 0.2, on two w8a subsets, w8a and ijcnn1; paper values on the whole sets only."""
    rows = quick_reproduce(U, tmp_path)
    sets = ("w8a 50%", "w8a 77%", "w8a", "ijcnn1")
    assert set(rows) == {(a, d) for a in ("Perceptron", "OGD", "OGD eta=0.2") for d in sets}
    main = {e.label: e for e in tables()["lu2016-table5"].entries}
    assert rows[("Perceptron", "w8a")]["params"] == main["Perceptron"].params
    for ds in sets:
        assert rows[("OGD", ds)]["params"] == dict(main["OGD"].params, eta=2.0)
        assert rows[("OGD eta=0.2", ds)]["params"] == dict(main["OGD"].params, eta=0.2)
        assert (rows[("Perceptron", ds)]["paper"] is None) == ds.startswith("w8a ")
