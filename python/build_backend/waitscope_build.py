"""A PEP 517 build backend for the waitscope package that needs nothing but the standard library, so
that `pip install ./python` works offline (no setuptools or wheel to download into pip's isolated
build environment). It builds a pure-Python wheel of waitscope/, an sdist, and an editable wheel
(PEP 660) that points at this directory."""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

try:
    import tomllib
except ImportError:  # Python < 3.11: the few fields are read by hand
    tomllib = None

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "waitscope"
# Fixed times in the archives, so that a build is reproducible (the zip format starts in 1980).
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def _project():
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        data = f.read()
    if tomllib is not None:
        return tomllib.loads(data.decode())["project"]
    text = data.decode()
    field = lambda key: re.search(rf'^{key} = "([^"]*)"', text, re.M).group(1)  # noqa: E731
    dependencies = re.findall(r'"([^"]+)"', re.search(r"^dependencies = \[(.*)\]", text, re.M).group(1))
    plot = re.findall(r'"([^"]+)"', re.search(r"^plot = \[(.*)\]", text, re.M).group(1))
    return {"name": field("name"), "description": field("description"), "requires-python": field("requires-python"),
            "dependencies": dependencies, "optional-dependencies": {"plot": plot}}


def _version():
    with open(os.path.join(HERE, PACKAGE, "_version.py"), encoding="utf-8") as f:
        return re.search(r'^__version__ = "([^"]+)"', f.read(), re.M).group(1)


def _metadata():
    project = _project()
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {_version()}",
             f"Summary: {project['description']}", f"Requires-Python: {project['requires-python']}"]
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    for extra, deps in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {d}; extra == "{extra}"' for d in deps]
    return "\n".join(lines) + "\n"


def _dist_info():
    return f"{PACKAGE}-{_version()}.dist-info"


def _package_files():
    """The package's sources, relative to HERE, sorted."""
    out = []
    for root, dirs, files in os.walk(os.path.join(HERE, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        out += [os.path.relpath(os.path.join(root, f), HERE) for f in sorted(files) if f.endswith(".py")]
    return out


def _write_wheel(wheel_directory, entries):
    """entries: (archive name, bytes); adds the dist-info files and RECORD."""
    info = _dist_info()
    entries = list(entries) + [
        (f"{info}/METADATA", _metadata().encode()),
        (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: waitscope_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
    ]
    record = io.StringIO()
    for name, data in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.write(f"{name},sha256={digest},{len(data)}\n")
    record.write(f"{info}/RECORD,,\n")
    entries.append((f"{info}/RECORD", record.getvalue().encode()))
    name = f"{PACKAGE}-{_version()}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for entry, data in entries:
            member = zipfile.ZipInfo(entry, ZIP_TIME)
            member.external_attr = 0o644 << 16
            member.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(member, data)
    return name


def _read(relative):
    with open(os.path.join(HERE, relative), "rb") as f:
        return f.read()


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = os.path.join(metadata_directory, _dist_info())
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata())
    return _dist_info()


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, [(f.replace(os.sep, "/"), _read(f)) for f in _package_files()])


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # A .pth file puts this directory on sys.path: the package is used from the source tree.
    return _write_wheel(wheel_directory, [(f"{PACKAGE}_editable.pth", (HERE + "\n").encode())])


def build_sdist(sdist_directory, config_settings=None):
    base = f"{PACKAGE}-{_version()}"
    files = ["pyproject.toml", "build_backend/waitscope_build.py"] + _package_files()
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for f in files:
            data = _read(f)
            member = tarfile.TarInfo(f"{base}/{f.replace(os.sep, '/')}")
            member.size, member.mode, member.mtime = len(data), 0o644, 0
            tar.addfile(member, io.BytesIO(data))
        pkg_info = _metadata().encode()
        member = tarfile.TarInfo(f"{base}/PKG-INFO")
        member.size, member.mode = len(pkg_info), 0o644
        tar.addfile(member, io.BytesIO(pkg_info))
    return name
