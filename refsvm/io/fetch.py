"""Benchmark files by name: download from the LIBSVM collection, verify, cache.

:func:`fetch_libsvm` downloads the files of a data set (training split and,
where there is one, test split) from the LIBSVM data collection into a cache
folder, checks each against a SHA-256 recorded here, and stores it as
``<file>.bz2``, the form :func:`refsvm.datasets.load_libsvm` reads.

Where files go (``data_home``): the argument if given, else the folder named
by ``REFSVM_DATA`` if that variable is set, else the per-user cache
``$XDG_CACHE_HOME/refsvm`` (``~/.cache/refsvm`` when ``XDG_CACHE_HOME`` is
unset).  :func:`data_homes` lists where :func:`refsvm.datasets.load_libsvm`
looks, in that order.

Safety:

* **checksums** — :data:`LIBSVM_FILES` records the SHA-256 of each file's
  *text* (the decompressed content, so that a server's compression does not
  matter).  Only files whose LIBSVM text is known byte for byte are listed
  (those the shared data's ``SOURCES.md`` marks *as distributed*).  Sets
  whose shared copy was converted from another source (usps, letter, ...),
  or whose LIBSVM text is not known exactly (ijcnn1, whose copy rewrote the
  labels; w8a, whose copy had an extra blank line), have no entry: place
  their files by hand (``<name>.bz2`` in ``data_home``).
* **atomic writes** — a file is written to a temporary name in the target
  folder and renamed only after its checksum matched: an interrupted
  download, a checksum mismatch or Ctrl-C leave no partial file behind.
* **offline** — a failed connection raises :class:`FetchError` with one
  line naming the URL and where to put the file by hand.

We considered the field's fetcher, ``libsvmdata``: it downloads into its own
folder and verifies no checksum, and refsvm must read ``REFSVM_DATA`` first
and store ``.bz2`` files; the few lines of :mod:`urllib` below do that with
no new dependency.

Automatic downloads (``load_libsvm(name)`` / ``refsvm train NAME`` when the
file is missing) are switched off by ``download=False`` / ``--no-download``,
or for a whole process by the environment variable ``REFSVM_NO_DOWNLOAD=1``
(refsvm's own test suite sets it: its tests never reach the internet).
"""

import bz2
import hashlib
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path

from .._files import atomic_temp

__all__ = ["LIBSVM_URL", "LIBSVM_FILES", "FetchError", "fetch_libsvm", "verify_file", "data_homes", "default_cache",
           "auto_download_enabled"]

#: The LIBSVM data collection (``REFSVM_LIBSVM_URL`` overrides it, e.g. for a mirror).
LIBSVM_URL = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets"

#: file stem -> (path below :data:`LIBSVM_URL`, SHA-256 of the file's text).
#: The checksums are those of the LIBSVM files as distributed (``SOURCES.md``
#: of the shared data records them with the files' provenance).
LIBSVM_FILES = {
    "a9a": ("binary/a9a", "f5d5ffd8d865ff41328e7ee043e4b020816914ff6843ff15b98905ddbedce906"),
    "a9a.t": ("binary/a9a.t", "1f448a153f0320399a7e40836eb207655b0bde0f21fc941cc472193daa9f5de9"),
    "german.numer_scale": ("binary/german.numer_scale",
                           "e461161650598fda2988f2a4c3b592634bbcae1c0eec382c94ceda5f30d4dab4"),
    "mushrooms": ("binary/mushrooms", "a082183b372d8ddd8bf84542785952fb53c86cee7ea5e4399cb4ed0f3d5132c5"),
    "svmguide1": ("binary/svmguide1", "2b9ab55b6236f62cee6b7739b52f9e7cb033771f39b9c22c1f1790d80ef14d7f"),
    "svmguide1.t": ("binary/svmguide1.t", "f9c2fd4c725172aeb4476fc1e2327d537f7fbc2f53f49dfd073f80efbe1ba8f7"),
    "heart_scale": ("binary/heart_scale", "5defa0a4c4c5bdaf3f55ae3828310252e8565c13ee37ce279e0b86d82e7f4ce9"),
    "dna.scale": ("multiclass/dna.scale", "03d39477c5e48415e9cd18e006efc8f7a3b5c3deaee8289a72511c35070e3cfe"),
    "dna.scale.t": ("multiclass/dna.scale.t", "d2eeed170e4e38ae2aba6aa4cd27a8ca4ecceb01a7751e8e509bb4e1a6bcef39"),
    "housing_scale": ("regression/housing_scale",
                      "bbacd2f526a038499717d5dc4b8895e6baf1e2351895b9360a84bcb31e104476"),
}

_CHUNK = 1 << 16


class FetchError(OSError):
    """A data file could not be downloaded or verified (the message names the URL and the file)."""


class _NotThere(FetchError):
    """The server (or file:// folder) has no file at that URL: try the other layout (.bz2 or not)."""


def default_cache():
    """The per-user cache folder: ``$XDG_CACHE_HOME/refsvm`` or ``~/.cache/refsvm``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "refsvm"


def data_homes():
    """Where data files are looked for, in order: ``$REFSVM_DATA`` (if set), then :func:`default_cache`."""
    homes = []
    if os.environ.get("REFSVM_DATA"):
        homes.append(Path(os.environ["REFSVM_DATA"]).expanduser())
    homes.append(default_cache())
    return homes


def auto_download_enabled():
    """False when the environment variable ``REFSVM_NO_DOWNLOAD`` is set to anything but ``0`` / empty."""
    return os.environ.get("REFSVM_NO_DOWNLOAD", "0") in ("", "0")


def _files_of(name):
    """The file stems of data set ``name``: itself and its test split ``<name>.t`` where there is one."""
    return [name] + ([f"{name}.t"] if f"{name}.t" in LIBSVM_FILES else [])


def _progress(out, label, done, total):
    if out is None:
        return
    if total:
        out.write(f"\r{label}: {done / 2**20:.1f} / {total / 2**20:.1f} MiB ({100 * done // total}%)")
    else:
        out.write(f"\r{label}: {done / 2**20:.1f} MiB")
    out.flush()


def _download_one(stem, url, sha256, target_dir, *, timeout, progress):
    """Download ``url`` (LIBSVM text, or its .bz2), verify the text's SHA-256, write ``<stem>.bz2`` atomically."""
    target = target_dir / f"{stem}.bz2"
    by_hand = f"download it yourself and save it bzip2-compressed as {target}"
    try:
        response = urllib.request.urlopen(url, timeout=timeout)
    except urllib.error.HTTPError as exc:
        error = _NotThere if exc.code in (404, 410) else FetchError
        raise error(f"{url}: the server answered {exc.code} {exc.reason}; {by_hand}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, FileNotFoundError):         # a file:// mirror without this file
            raise _NotThere(f"{url}: no such file; {by_hand}") from None
        raise FetchError(f"{url}: cannot download ({reason}); no network? {by_hand}") from None
    total = int(response.headers.get("Content-Length") or 0) or None
    compressed = url.endswith(".bz2")
    digest = hashlib.sha256()
    decompressor = bz2.BZ2Decompressor() if compressed else None
    compressor = None if compressed else bz2.BZ2Compressor(9)
    target_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp = atomic_temp(target_dir, prefix=f".{stem}.", suffix=".part")
    done = 0
    try:
        with os.fdopen(fd, "wb") as fh, response:
            while True:
                try:
                    chunk = response.read(_CHUNK)
                except OSError as exc:  # e.g. connection reset, http.client.IncompleteRead
                    raise FetchError(f"{url}: the transfer broke off after {done} bytes ({exc}); "
                                     f"try again, or {by_hand}") from None
                if not chunk:
                    break
                done += len(chunk)
                digest.update(decompressor.decompress(chunk) if compressed else chunk)
                fh.write(chunk if compressed else compressor.compress(chunk))
                _progress(progress, stem, done, total)
            if total is not None and done < total:
                raise FetchError(f"{url}: the transfer broke off after {done} of {total} bytes; "
                                 f"try again, or {by_hand}")
            if not compressed:
                fh.write(compressor.flush())
        if progress is not None:
            progress.write("\n")
        if digest.hexdigest() != sha256:
            raise FetchError(f"{url}: checksum mismatch (SHA-256 of the text {digest.hexdigest()}, expected "
                             f"{sha256}); the file was not saved. The server's file differs from the one "
                             f"refsvm knows; {by_hand} if you trust it")
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def fetch_libsvm(name, data_home=None, *, base_url=None, timeout=60, progress=True, force=False):
    """Download data set ``name`` (and its test split) from the LIBSVM collection; return the file paths.

    Parameters
    ----------
    name : str
        A data set of :data:`LIBSVM_FILES`, e.g. ``"a9a"`` (its test split
        ``a9a.t`` comes with it).
    data_home : str or path, optional
        Target folder; default ``$REFSVM_DATA`` if set, else :func:`default_cache`.
    base_url : str, optional
        Default ``$REFSVM_LIBSVM_URL`` if set, else :data:`LIBSVM_URL`.
    timeout : float
        Seconds to wait for the server.
    progress : bool or file
        Progress on ``sys.stderr`` (or the given file); False: silent.
    force : bool
        Download even if the files are there.

    Returns
    -------
    list of pathlib.Path
        ``<data_home>/<file>.bz2`` for each split.

    Raises
    ------
    ValueError
        ``name`` has no recorded checksum (the message lists the names that have one).
    FetchError
        (an ``OSError``) naming the URL: no connection, an HTTP error, an
        interrupted transfer or a checksum mismatch; no partial file is left.
    """
    stems = _files_of(name)
    unknown = [s for s in stems if s not in LIBSVM_FILES]
    home = Path(data_home).expanduser() if data_home is not None else data_homes()[0]
    if unknown:
        raise ValueError(f"{name}: no download with a known checksum; data sets that can be fetched: "
                         f"{', '.join(sorted(s for s in LIBSVM_FILES if not s.endswith('.t')))} "
                         f"(place other files by hand as <name>.bz2 in {home})")
    base = (base_url or os.environ.get("REFSVM_LIBSVM_URL") or LIBSVM_URL).rstrip("/")
    out = sys.stderr if progress is True else (progress or None)
    needed = [s for s in stems if force or not (home / f"{s}.bz2").is_file()]
    for stem in stems:
        if stem not in needed:
            verify_file(home / f"{stem}.bz2", stem)   # a file already there must be the one we know
    if needed:
        _check_folder_writable(home)                 # before any network access
    for stem in needed:
        rel, sha256 = LIBSVM_FILES[stem]
        _download_either(stem, f"{base}/{rel}", sha256, home, timeout=timeout, progress=out)
    return [home / f"{stem}.bz2" for stem in stems]


def _check_folder_writable(home):
    """Fail with one line naming ``home`` when files cannot be created there (checked before downloading)."""
    try:
        home.mkdir(parents=True, exist_ok=True)
        fd, tmp = atomic_temp(home, prefix=".refsvm-write-test.", suffix=".part")
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise FetchError(f"{home}: cannot write the data files there ({exc.strerror or exc}); choose another "
                         "folder with --data-home / data_home or REFSVM_DATA") from None


def _download_either(stem, url, sha256, home, *, timeout, progress):
    """:func:`_download_one` of ``url`` (LIBSVM's uncompressed layout); when the server has no such file,
    of ``url + ".bz2"`` (LIBSVM's own layout for its larger files, and mirrors that keep .bz2 files)."""
    try:
        return _download_one(stem, url, sha256, home, timeout=timeout, progress=progress)
    except _NotThere as first:
        try:
            return _download_one(stem, url + ".bz2", sha256, home, timeout=timeout, progress=progress)
        except _NotThere:
            raise FetchError(f"{first}; {url}.bz2 is not there either") from None


#: (resolved path, size, mtime_ns) -> SHA-256 of the text: each file is hashed once per process while it
#: keeps its size and modification time (no file is written beside the data: REFSVM_DATA may be read-only).
_VERIFIED = {}


def text_sha256(path):
    """The SHA-256 of the decompressed text of the ``.bz2`` file ``path`` (cached by size and mtime)."""
    path = Path(path)
    st = path.stat()
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    if key not in _VERIFIED:
        digest = hashlib.sha256()
        try:
            with bz2.open(path, "rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(chunk)
        except (OSError, EOFError, ValueError) as exc:     # not bzip2 data, truncated
            raise FetchError(f"{path}: damaged file ({exc}); delete it and fetch it again "
                             f"(refsvm fetch --force {path.name.removesuffix('.bz2')})") from None
        _VERIFIED[key] = digest.hexdigest()
    return _VERIFIED[key]


def verify_file(path, stem=None):
    """Check the ``.bz2`` data file ``path`` against its recorded checksum (a file with none passes).

    Raises :class:`FetchError` (one line naming the file and ``refsvm fetch --force``) on a mismatch.
    Hashing costs about 0.13 s for a9a's 2.2 MiB; the result is cached by size and mtime.
    """
    path = Path(path)
    stem = stem or path.name.removesuffix(".bz2")
    if stem not in LIBSVM_FILES:
        return path
    found = text_sha256(path)
    if found != LIBSVM_FILES[stem][1]:
        name = stem.removesuffix(".t") if stem.endswith(".t") and stem[:-2] in LIBSVM_FILES else stem
        raise FetchError(f"{path}: corrupted or not LIBSVM's file (SHA-256 of its text {found[:16]}..., expected "
                         f"{LIBSVM_FILES[stem][1][:16]}...); delete it and run refsvm fetch --force {name}")
    return path
