"""The package's version is the tools' (the top CMakeLists.txt's project(VERSION)).
    check_version.py PYTHON_SOURCE_DIR PROJECT_VERSION"""
import os
import re
import sys

source, expected = sys.argv[1:3]
with open(os.path.join(source, "waitscope", "_version.py"), encoding="utf-8") as f:
    found = re.search(r'^__version__ = "([^"]*)"', f.read(), re.M)
version = found.group(1) if found else None
if version != expected:
    sys.exit(f"FAIL: python/waitscope/_version.py says {version}, the project is {expected}: change _version.py")
print(f"ok: the Python package's version is {version}")
