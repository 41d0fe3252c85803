"""refsvm.io.fetch / ``refsvm fetch``: downloads served by a local HTTP server on 127.0.0.1 (never the internet).

Each case of the issue list: a good download (plain text and .bz2), a checksum mismatch, an
interrupted transfer, an HTTP 404, no server at all (offline), load_libsvm's automatic
download and its switch, and the command line.  A failed download leaves no file behind.
"""

import bz2
import hashlib
import http.server
import socket
import threading

import numpy as np
import pytest

from refsvm.cli import main
from refsvm.datasets import load_libsvm
from refsvm.io import fetch as fetch_module
from refsvm.io.fetch import FetchError, fetch_libsvm

TRAIN = "1 1:0.5 3:1\n-1 2:2\n1 1:1 2:1 3:1\n"
TEST = "-1 1:1\n1 3:0.25\n"


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


class _Server:
    """Files by path; ``truncate`` paths announce more bytes than they send; counts requests."""

    def __init__(self):
        self.files, self.truncate, self.requests = {}, set(), []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                outer.requests.append(self.path)
                body = outer.files.get(self.path)
                if body is None:
                    self.send_error(404, "Not Found")
                    return
                self.send_response(200)
                extra = 1000 if self.path in outer.truncate else 0
                self.send_header("Content-Length", str(len(body) + extra))
                self.end_headers()
                self.wfile.write(body[: len(body) // 2] if extra else body)
                if extra:
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/datasets"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server(monkeypatch):
    srv = _Server()
    srv.files["/datasets/binary/tiny"] = TRAIN.encode()
    srv.files["/datasets/binary/tiny.t"] = TEST.encode()
    srv.files["/datasets/binary/packed.bz2"] = bz2.compress(TRAIN.encode())
    monkeypatch.setitem(fetch_module.LIBSVM_FILES, "tiny", ("binary/tiny", sha(TRAIN)))
    monkeypatch.setitem(fetch_module.LIBSVM_FILES, "tiny.t", ("binary/tiny.t", sha(TEST)))
    monkeypatch.setitem(fetch_module.LIBSVM_FILES, "packed", ("binary/packed.bz2", sha(TRAIN)))
    yield srv
    srv.close()


def _leftovers(folder):
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_download_verifies_and_stores_bz2(server, tmp_path, capsys):
    paths = fetch_libsvm("tiny", tmp_path, base_url=server.url)
    assert [p.name for p in paths] == ["tiny.bz2", "tiny.t.bz2"]
    assert bz2.decompress(paths[0].read_bytes()).decode() == TRAIN
    assert bz2.decompress(paths[1].read_bytes()).decode() == TEST
    assert _leftovers(tmp_path) == ["tiny.bz2", "tiny.t.bz2"]      # no temporary file left
    assert "tiny" in capsys.readouterr().err                        # progress on stderr
    # a second call finds the files and downloads nothing
    n = len(server.requests)
    fetch_libsvm("tiny", tmp_path, base_url=server.url)
    assert len(server.requests) == n


def test_compressed_download(server, tmp_path):
    (path,) = fetch_libsvm("packed", tmp_path, base_url=server.url, progress=False)
    assert bz2.decompress(path.read_bytes()).decode() == TRAIN


def test_checksum_mismatch_leaves_no_file(server, tmp_path, monkeypatch):
    monkeypatch.setitem(fetch_module.LIBSVM_FILES, "tiny", ("binary/tiny", "0" * 64))
    with pytest.raises(FetchError, match="checksum mismatch") as err:
        fetch_libsvm("tiny", tmp_path, base_url=server.url, progress=False)
    assert f"{server.url}/binary/tiny" in str(err.value)
    assert _leftovers(tmp_path) == []


def test_interrupted_transfer_leaves_no_file(server, tmp_path):
    server.truncate.add("/datasets/binary/tiny")
    with pytest.raises(FetchError, match="broke off") as err:
        fetch_libsvm("tiny", tmp_path, base_url=server.url, progress=False)
    assert "/binary/tiny" in str(err.value)
    assert _leftovers(tmp_path) == []


def test_http_404_names_url(server, tmp_path):
    del server.files["/datasets/binary/tiny.t"]
    with pytest.raises(FetchError, match="404") as err:
        fetch_libsvm("tiny", tmp_path, base_url=server.url, progress=False)
    assert f"{server.url}/binary/tiny.t" in str(err.value)
    assert _leftovers(tmp_path) == ["tiny.bz2"]         # the split that arrived whole is kept


def test_offline_is_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.setitem(fetch_module.LIBSVM_FILES, "tiny", ("binary/tiny", sha(TRAIN)))
    with socket.socket() as s:                          # a port with nobody listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(FetchError) as err:
        fetch_libsvm("tiny", tmp_path, base_url=f"http://127.0.0.1:{port}/x", progress=False)
    message = str(err.value)
    assert f"http://127.0.0.1:{port}/x/binary/tiny" in message and "yourself" in message
    assert str(tmp_path / "tiny.bz2") in message        # where to place the file by hand
    assert _leftovers(tmp_path) == []


def test_unknown_name_lists_the_fetchable_sets(tmp_path):
    with pytest.raises(ValueError, match="a9a"):
        fetch_libsvm("usps", tmp_path)


def test_load_libsvm_downloads_a_missing_set(server, tmp_path, monkeypatch):
    monkeypatch.setenv("REFSVM_DATA", str(tmp_path))
    monkeypatch.setenv("REFSVM_LIBSVM_URL", server.url)
    monkeypatch.delenv("REFSVM_NO_DOWNLOAD")
    X, y, Xt, yt = load_libsvm("tiny")
    np.testing.assert_array_equal(y, [1, -1, 1])
    np.testing.assert_array_equal(X[0], [0.5, 0, 1])
    assert Xt.shape == (2, 3)
    assert (tmp_path / "tiny.bz2").is_file()


def test_load_libsvm_download_switches(server, tmp_path, monkeypatch):
    monkeypatch.setenv("REFSVM_DATA", str(tmp_path))
    monkeypatch.setenv("REFSVM_LIBSVM_URL", server.url)
    monkeypatch.delenv("REFSVM_NO_DOWNLOAD")
    with pytest.raises(FileNotFoundError, match="tiny.bz2"):
        load_libsvm("tiny", download=False)
    monkeypatch.setenv("REFSVM_NO_DOWNLOAD", "1")
    with pytest.raises(FileNotFoundError, match="tiny.bz2"):
        load_libsvm("tiny")
    assert server.requests == []


def test_cache_is_used_without_refsvm_data(server, tmp_path, monkeypatch):
    monkeypatch.delenv("REFSVM_DATA", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    fetch_libsvm("tiny", base_url=server.url, progress=False)
    assert (tmp_path / "refsvm" / "tiny.bz2").is_file()
    X, _, _, _ = load_libsvm("tiny")
    assert X.shape == (3, 3)


def test_command_line(server, tmp_path, capsys):
    assert main(["fetch", "tiny", "--data-home", str(tmp_path), "--url", server.url, "--quiet"]) == 0
    assert capsys.readouterr().out.split() == [str(tmp_path / "tiny.bz2"), str(tmp_path / "tiny.t.bz2")]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["fetch", "tiny", "--data-home", str(tmp_path / "b"), "--url", f"http://127.0.0.1:{port}"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("refsvm fetch: error:") and f"127.0.0.1:{port}" in err[0]


def test_recorded_checksums_match_the_shared_files(require_data):
    """The checksums in refsvm are those of the shared data's files (as distributed by LIBSVM)."""
    require_data("a9a")  # skips without REFSVM_DATA
    import os
    from pathlib import Path

    folder = Path(os.environ["REFSVM_DATA"])
    for stem, (_, digest) in fetch_module.LIBSVM_FILES.items():
        text = bz2.decompress((folder / f"{stem}.bz2").read_bytes())
        assert hashlib.sha256(text).hexdigest() == digest, stem


# ------------------------------------------------------------ mirrors, the target folder, files already there


def test_mirror_of_bz2_files(server, tmp_path):
    """A mirror that keeps LIBSVM's files bzip2-compressed (<path>.bz2, no plain file): the plain URL
    answers 404, the .bz2 one is read."""
    server.files.clear()
    server.files["/datasets/binary/tiny.bz2"] = bz2.compress(TRAIN.encode())
    server.files["/datasets/binary/tiny.t.bz2"] = bz2.compress(TEST.encode())
    paths = fetch_libsvm("tiny", tmp_path, base_url=server.url, progress=False)
    assert [bz2.decompress(p.read_bytes()).decode() for p in paths] == [TRAIN, TEST]
    assert server.requests == ["/datasets/binary/tiny", "/datasets/binary/tiny.bz2",
                               "/datasets/binary/tiny.t", "/datasets/binary/tiny.t.bz2"]
    assert _leftovers(tmp_path) == ["tiny.bz2", "tiny.t.bz2"]


@pytest.mark.parametrize("compressed", [True, False])
def test_file_url_mirror(tmp_path, monkeypatch, compressed):
    monkeypatch.setitem(fetch_module.LIBSVM_FILES, "tiny", ("binary/tiny", sha(TRAIN)))
    monkeypatch.setitem(fetch_module.LIBSVM_FILES, "tiny.t", ("binary/tiny.t", sha(TEST)))
    mirror = tmp_path / "mirror" / "binary"
    mirror.mkdir(parents=True)
    for stem, text in (("tiny", TRAIN), ("tiny.t", TEST)):
        if compressed:
            (mirror / f"{stem}.bz2").write_bytes(bz2.compress(text.encode()))
        else:
            (mirror / stem).write_text(text)
    home = tmp_path / "home"
    paths = fetch_libsvm("tiny", home, base_url=(tmp_path / "mirror").as_uri(), progress=False)
    assert [bz2.decompress(p.read_bytes()).decode() for p in paths] == [TRAIN, TEST]


def test_missing_everywhere_names_both_urls(server, tmp_path):
    server.files.clear()
    with pytest.raises(FetchError) as err:
        fetch_libsvm("tiny", tmp_path, base_url=server.url, progress=False)
    assert f"{server.url}/binary/tiny: the server answered 404" in str(err.value)
    assert f"{server.url}/binary/tiny.bz2 is not there either" in str(err.value)


@pytest.mark.parametrize("where", ["under a file", "/proc"])
def test_unwritable_data_home_fails_before_any_download(server, tmp_path, monkeypatch, capsys, where):
    if where == "/proc" and not __import__("os").path.isdir("/proc"):
        pytest.skip("no /proc")
    (tmp_path / "file").write_text("x")
    home = tmp_path / "file" / "data" if where == "under a file" else "/proc"

    def no_network(*args, **kwargs):
        pytest.fail("the network was tried before the folder was checked")

    monkeypatch.setattr(fetch_module.urllib.request, "urlopen", no_network)
    with pytest.raises(FetchError, match="cannot write the data files there"):
        fetch_libsvm("tiny", home, base_url=server.url, progress=False)
    assert main(["fetch", "tiny", "--data-home", str(home), "--url", server.url]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"refsvm fetch: error: {home}: cannot write the data files there")
    assert server.requests == []


def test_corrupted_file_in_the_data_folder_is_detected(server, tmp_path, monkeypatch, capsys):
    """A damaged or foreign file under a name with a recorded checksum: refsvm fetch (without --force) and
    a load by name refuse it in one line naming the file and the fix; a good file passes, once hashed."""
    (tmp_path / "tiny.bz2").write_bytes(bz2.compress(TRAIN.replace("0.5", "0.6").encode()))
    (tmp_path / "tiny.t.bz2").write_bytes(bz2.compress(TEST.encode()))
    with pytest.raises(FetchError, match=r"tiny\.bz2: corrupted or not LIBSVM's file .*refsvm fetch --force tiny"):
        fetch_libsvm("tiny", tmp_path, base_url=server.url, progress=False)
    assert server.requests == []
    assert main(["fetch", "tiny", "--data-home", str(tmp_path), "--url", server.url]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "corrupted or not LIBSVM's file" in err[0]
    monkeypatch.setenv("REFSVM_DATA", str(tmp_path))
    with pytest.raises(FetchError, match="corrupted"):
        load_libsvm("tiny")
    (tmp_path / "tiny.bz2").write_bytes(b"BZh91AY&SY garbage")       # not even bzip2 data
    with pytest.raises(FetchError, match=r"tiny\.bz2: damaged file .*refsvm fetch --force tiny"):
        load_libsvm("tiny")
    # --force replaces it; the good file is then accepted, and hashed once while it is unchanged
    fetch_libsvm("tiny", tmp_path, base_url=server.url, progress=False, force=True)
    assert bz2.decompress((tmp_path / "tiny.bz2").read_bytes()) == TRAIN.encode()
    assert load_libsvm("tiny")[0].shape == (3, 3)
    monkeypatch.setattr(fetch_module.bz2, "open", lambda *a, **k: pytest.fail("hashed again"))
    fetch_libsvm("tiny", tmp_path, base_url=server.url, progress=False)


def test_fetch_error_for_an_unknown_set_starts_with_its_name(tmp_path, capsys):
    with pytest.raises(ValueError, match=r"^usps: no download with a known checksum"):
        fetch_libsvm("usps", tmp_path)
