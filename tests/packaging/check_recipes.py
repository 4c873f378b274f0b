#!/usr/bin/env python3
"""The Spack recipe and the EasyBuild easyconfig parse as Python and agree with the build:
the version of project(VERSION) in CMakeLists.txt, and a dependency for everything
cmake/WaitscopeDependencies.cmake and analysis/measure/CMakeLists.txt look for, with at
least the minimum versions they ask for. Spack and EasyBuild are not needed.
    check_recipes.py SOURCE_DIR"""
import ast
import pathlib
import re
import sys

src = pathlib.Path(sys.argv[1])
errors = []


def check(ok, message):
    if not ok:
        errors.append(message)


def version_tuple(text):
    numbers = [int(x) for x in re.findall(r"\d+", text)]
    return tuple(numbers + [0] * (4 - len(numbers)))  # 3 == 3.0


# --- what the build asks for -------------------------------------------------------------
top = (src / "CMakeLists.txt").read_text()
project_version = re.search(r"project\(\s*Waitscope\s+VERSION\s+([\d.]+)", top).group(1)
cmake_minimum = re.search(r"cmake_minimum_required\(VERSION\s+([\d.]+)", top).group(1)
deps_cmake = (src / "cmake" / "WaitscopeDependencies.cmake").read_text()
deps_cmake += (src / "analysis" / "measure" / "CMakeLists.txt").read_text()
found = {}  # CMake name -> minimum version ('' if none)
for name, minimum in re.findall(r"find_package\((\w+)\s+([\d.]*)", deps_cmake):
    found[name] = minimum
for name, minimum in re.findall(r"pkg_check_modules\(\w+\s+REQUIRED\s+IMPORTED_TARGET\s+([\w-]+)(?:>=([\d.]+))?",
                                 deps_cmake):
    found[name] = minimum or ""
qt_components = re.search(r"find_package\(Qt6[^)]*COMPONENTS([^)]*)\)", deps_cmake).group(1).split()

# CMake name -> (Spack package, EasyBuild name, only with the GUI); None: provided otherwise.
mapping = {
    "MPI": ("mpi", None, False),          # EasyBuild: OpenMPI of the foss toolchain
    "PkgConfig": ("pkgconfig", "pkgconf", False),
    "otf2": ("otf2", "OTF2", False),
    "SQLite3": ("sqlite", "SQLite", False),
    "ZLIB": ("zlib-api", "zlib", False),
    "Threads": (None, None, False),
    "GTest": (None, None, False),          # tests only; the recipes build without them
    "libdw": ("elfutils", "elfutils", False),
    "Qt6": ("qt-base", "Qt6", True),
}
for name in found:
    check(name in mapping, f"the build looks for {name}: add it to the recipes and to this check's mapping")
spack_qt_modules = {"Svg": "qt-svg", "Charts": "qt-charts"}  # the rest are in qt-base

# --- Spack ----------------------------------------------------------------------------------
spack_path = src / "packaging" / "spack" / "package.py"
spack_tree = ast.parse(spack_path.read_text(), str(spack_path))
compile(spack_tree, str(spack_path), "exec")


def calls(tree, function):
    """(positional string arguments, keyword strings, enclosing `with when(...)` condition)."""
    out = []

    def visit(node, when):
        if isinstance(node, ast.With):
            for item in node.items:
                c = item.context_expr
                if isinstance(c, ast.Call) and getattr(c.func, "id", "") == "when":
                    when = c.args[0].value
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == function:
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            kwargs = {k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)}
            out.append((args, kwargs, kwargs.get("when", when)))
        for child in ast.iter_child_nodes(node):
            visit(child, when)

    visit(tree, None)
    return out


spack_versions = [a[0] for a, _, _ in calls(spack_tree, "version")]
check(project_version in spack_versions, f"Spack: no version({project_version!r}) (has {spack_versions})")
variants = {a[0]: kw for a, kw, _ in calls(spack_tree, "variant")}
check("gui" in variants, "Spack: no gui variant")
spack_deps = {}
for args, kwargs, when in calls(spack_tree, "depends_on"):
    spec = args[0]
    package = re.match(r"[\w-]+", spec).group(0)
    minimum = re.search(r"@([\d.]+):", spec)
    spack_deps[package] = (minimum.group(1) if minimum else "", when, kwargs.get("type"))


def check_spack(package, minimum, gui):
    check(package in spack_deps, f"Spack: no depends_on({package!r})")
    if package not in spack_deps:
        return
    have, when, _ = spack_deps[package]
    if minimum:
        check(have and version_tuple(have) >= version_tuple(minimum),
              f"Spack: {package} needs @{minimum}: as in CMake (has @{have or 'any'})")
    check((when == "+gui") == gui, f"Spack: {package} should be {'only ' if gui else 'not only '}with +gui")


for name, minimum in found.items():
    package, _, gui = mapping.get(name, (None, None, False))
    if package:
        check_spack(package, minimum, gui)
for component in qt_components:
    if component in spack_qt_modules:
        check_spack(spack_qt_modules[component], found["Qt6"], True)
check_spack("cmake", cmake_minimum, False)
check(spack_deps.get("cmake", ("", None, None))[2] == "build", "Spack: cmake must be type='build'")
spack_text = spack_path.read_text()
check('define_from_variant("WAITSCOPE_GUI", "gui")' in spack_text, "Spack: WAITSCOPE_GUI does not follow +gui")

# --- EasyBuild ------------------------------------------------------------------------------
ebs = sorted((src / "packaging" / "easybuild").glob("*.eb"))
check(len(ebs) == 1, f"expected one easyconfig, found {[e.name for e in ebs]}")
for eb in ebs:
    names = {}
    exec(compile(eb.read_text(), str(eb), "exec"), {}, names)  # easyconfigs are Python assignments
    check(names.get("name") == "Waitscope", f"{eb.name}: name")
    check(names.get("version") == project_version, f"{eb.name}: version {names.get('version')} != {project_version}")
    expected_file = f"Waitscope-{project_version}-{names['toolchain']['name']}-{names['toolchain']['version']}.eb"
    check(eb.name == expected_file, f"{eb.name}: should be named {expected_file}")
    check(names["toolchain"]["name"] in ("foss", "gompi"), f"{eb.name}: the toolchain must bring MPI (foss/gompi)")
    eb_deps = {d[0]: d[1] for d in names.get("dependencies", []) + names.get("builddependencies", [])}
    for name, minimum in list(found.items()) + [("CMake", cmake_minimum)]:
        eb_name = "CMake" if name == "CMake" else mapping.get(name, (None, None, False))[1]
        if not eb_name:
            continue
        check(eb_name in eb_deps, f"{eb.name}: no dependency {eb_name} (CMake looks for {name})")
        if eb_name in eb_deps and minimum:
            check(version_tuple(eb_deps[eb_name]) >= version_tuple(minimum),
                  f"{eb.name}: {eb_name} {eb_deps[eb_name]} is older than {minimum}")
    check("-DWAITSCOPE_GUI=ON" in names.get("configopts", ""), f"{eb.name}: configopts lacks -DWAITSCOPE_GUI=ON")

if errors:
    print("\n".join("FAIL: " + e for e in errors))
    sys.exit(1)
print(f"ok: Spack recipe and {len(ebs)} easyconfig agree with CMake (version {project_version}, "
      f"{len(found)} dependencies: {', '.join(sorted(found))})")
