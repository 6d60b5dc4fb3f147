#!/usr/bin/env python3
"""Runs packaging/conan/conanfile.py's methods against a minimal stand-in for the `conan` module
(Conan itself is not installed here): set_version, configure, validate, export_sources, package_id, layout,
generate, build, package and package_info, then compiles a consumer against the resulting package folder.

Both packages are made: header_only=True (the headers) and the default (the static library, built
and installed by the real CMake). This checks the recipe's own logic (paths, patterns, the version
read from version.hpp, the package layout and the names it declares), not Conan: the stand-in implements only the few calls
the recipe makes, following Conan 2's documented behaviour (copy() matches fnmatch patterns against
paths relative to src, recursively, and keeps the relative layout under dst)."""

import collections
import fnmatch
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import types

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECIPE = os.path.join(ROOT, "packaging", "conan", "conanfile.py")
TEST_RECIPE = os.path.join(ROOT, "packaging", "conan", "test_package", "conanfile.py")


def install_stand_in():
    class Info:
        cleared = False

        def clear(self):
            self.cleared = True

    class CppInfo:
        def __init__(self, root=True):
            self.props = {}
            self.bindirs = ["bin"]
            self.libdirs = ["lib"]
            self.includedirs = ["include"]
            self.libs = []
            self.defines = []
            self.requires = []
            if root:  # Conan creates a component on first access of components[name]
                self.components = collections.defaultdict(lambda: CppInfo(root=False))

        def set_property(self, name, value):
            self.props[name] = value

    class Options:
        """Attribute access to the recipe's options, as Conan gives them (self.options.header_only)."""

        def __init__(self, values):
            self.__dict__.update(values)

    class ConanFile:
        version = None

        def __init__(self, options=None):
            values = dict(getattr(self, "default_options", {}))
            values.update(options or {})
            self.options = Options(values)
            self.info = Info()
            self.info.options = Options(values)
            self.cpp_info = CppInfo()
            self.requirements_seen = []

        def requires(self, ref):
            self.requirements_seen.append(ref)

    def copy(conanfile, pattern, src, dst, *args, **kwargs):
        copied = []
        for folder, _, files in os.walk(src):
            for name in files:
                rel = os.path.relpath(os.path.join(folder, name), src).replace(os.sep, "/")
                if fnmatch.fnmatch(rel, pattern):
                    target = os.path.join(dst, rel)
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    shutil.copy2(os.path.join(folder, name), target)
                    copied.append(target)
        return copied

    def load(conanfile, path, *args, **kwargs):
        with open(path, encoding="utf-8") as f:
            return f.read()

    def noop(*args, **kwargs):
        return None

    def rmdir(conanfile, path):
        shutil.rmtree(path, ignore_errors=True)

    class CMakeToolchain:
        """Records the cache variables; CMake below passes them to a real configure."""

        def __init__(self, conanfile):
            self.conanfile = conanfile
            self.cache_variables = {}

        def generate(self):
            self.conanfile.toolchain_variables = dict(self.cache_variables)

    class CMake:
        """Runs the real CMake on the recipe's folders (configure, build, install), with the toolchain's
        cache variables and the compiler under test: what Conan's CMake helper does."""

        def __init__(self, conanfile):
            self.c = conanfile

        def configure(self):
            defs = ["-D%s=%s" % (k, "ON" if v is True else "OFF" if v is False else v)
                    for k, v in getattr(self.c, "toolchain_variables", {}).items()]
            subprocess.run(["cmake", "-S", self.c.source_folder, "-B", self.c.build_folder, "-DCMAKE_BUILD_TYPE=Release",
                            "-DCMAKE_CXX_COMPILER=" + os.environ.get("CXX", "c++")] + defs,
                           check=True, stdout=subprocess.DEVNULL)

        def build(self):
            subprocess.run(["cmake", "--build", self.c.build_folder], check=True, stdout=subprocess.DEVNULL)

        def install(self):
            subprocess.run(["cmake", "--install", self.c.build_folder, "--prefix", self.c.package_folder], check=True,
                           stdout=subprocess.DEVNULL)

    modules = {
        "conan": types.ModuleType("conan"),
        "conan.tools": types.ModuleType("conan.tools"),
        "conan.tools.files": types.ModuleType("conan.tools.files"),
        "conan.tools.layout": types.ModuleType("conan.tools.layout"),
        "conan.tools.build": types.ModuleType("conan.tools.build"),
        "conan.tools.cmake": types.ModuleType("conan.tools.cmake"),
    }
    modules["conan"].ConanFile = ConanFile
    modules["conan.tools.files"].copy = copy
    modules["conan.tools.files"].load = load
    modules["conan.tools.files"].rmdir = rmdir
    modules["conan.tools.layout"].basic_layout = noop
    modules["conan.tools.build"].can_run = lambda conanfile: True

    def check_min_cppstd(conanfile, cppstd):
        conanfile.min_cppstd_checked = cppstd

    modules["conan.tools.build"].check_min_cppstd = check_min_cppstd
    modules["conan.tools.cmake"].cmake_layout = noop
    modules["conan.tools.cmake"].CMake = CMake
    modules["conan.tools.cmake"].CMakeToolchain = CMakeToolchain
    sys.modules.update(modules)


def load_recipe(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from conan import ConanFile

    classes = [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, ConanFile) and c is not ConanFile]
    assert len(classes) == 1, f"{path}: expected one ConanFile subclass, found {classes}"
    return classes[0]


def check_variant(header_only, version, check):
    """One package: the recipe's methods in Conan's order, then a consumer compiled against it."""
    what = "header_only=%s" % header_only
    recipe = load_recipe(RECIPE, "utf8dfa_conanfile")({"header_only": header_only})
    check(recipe.name == "utf8dfa", "name")
    recipe.recipe_folder = os.path.dirname(RECIPE)
    recipe.set_version()
    check(recipe.version == version, f"set_version read {recipe.version}, version.hpp says {version}")
    recipe.configure()
    recipe.validate()
    check(getattr(recipe, "min_cppstd_checked", None) == 17, f"{what}: validate() requires C++17")
    expected_type = "header-library" if header_only else "static-library"
    check(recipe.package_type == expected_type, f"{what}: package_type {recipe.package_type}")

    work = tempfile.mkdtemp(prefix="conan_recipe_test_")
    try:
        recipe.export_sources_folder = os.path.join(work, "export_source")
        recipe.export_sources()
        for needed in ("include/utf8dfa.hpp", "include/utf8dfa/version.hpp", "LICENSE", "CMakeLists.txt"):
            check(os.path.isfile(os.path.join(recipe.export_sources_folder, needed)), f"exported {needed}")

        recipe.package_id()
        check(recipe.info.cleared == header_only,
              f"{what}: package_id() clears the settings only when header-only (one package for all configurations)")

        recipe.source_folder = recipe.export_sources_folder
        recipe.build_folder = os.path.join(work, "build")
        recipe.package_folder = os.path.join(work, "package")
        recipe.layout()
        recipe.generate()
        recipe.build()
        recipe.package()
        src_headers = sorted(
            os.path.relpath(os.path.join(d, n), os.path.join(ROOT, "include"))
            for d, _, ns in os.walk(os.path.join(ROOT, "include"))
            for n in ns
            if n.endswith(".hpp")
        )
        pkg_include = os.path.join(recipe.package_folder, "include")
        pkg_headers = sorted(os.path.relpath(os.path.join(d, n), pkg_include) for d, _, ns in os.walk(pkg_include) for n in ns)
        check(src_headers == pkg_headers, f"{what}: packaged headers {pkg_headers} != include/ {src_headers}")
        others = sorted(
            os.path.relpath(os.path.join(d, n), recipe.package_folder)
            for d, _, ns in os.walk(recipe.package_folder)
            for n in ns
            if not os.path.join(d, n).startswith(pkg_include + os.sep)
        )
        libs = [f for f in others if f.startswith("lib")]
        expected_others = sorted([os.path.join("licenses", "LICENSE")] + ([] if header_only else libs))
        check(others == expected_others, f"{what}: nothing else packaged: {others}")
        check(len(libs) == (0 if header_only else 1) and all(f.endswith("libutf8dfa_compiled.a") for f in libs),
              f"{what}: the static library packaged: {libs}")

        recipe.package_info()
        props = recipe.cpp_info.props
        check(props.get("cmake_file_name") == "utf8dfa", "cmake_file_name")
        check(props.get("cmake_target_name") == "utf8dfa::utf8dfa", "cmake_target_name")
        check(props.get("pkg_config_name") == "utf8dfa", "pkg_config_name")
        # Components: the CMake package's targets; nothing declared on the root (Conan aggregates).
        comps = recipe.cpp_info.components
        root = recipe.cpp_info
        check(root.libs == [] and root.defines == [], f"{what}: nothing but properties on the root")
        check(sorted(comps) == (["header_only"] if header_only else ["header_only", "utf8dfa_compiled"]),
              f"{what}: components {sorted(comps)}")
        h = comps["header_only"]
        check(h.props.get("cmake_target_name") == "utf8dfa::header_only" and h.libs == [] and h.defines == []
              and h.libdirs == [] and h.bindirs == [] and h.includedirs == ["include"],
              f"{what}: utf8dfa::header_only is the headers alone")
        if not header_only:
            c = comps["utf8dfa_compiled"]
            check(c.props.get("cmake_target_name") == "utf8dfa::utf8dfa_compiled" and c.libs == ["utf8dfa_compiled"]
                  and c.defines == ["UTF8DFA_SEPARATE_COMPILATION"] and c.requires == ["header_only"]
                  and c.bindirs == [], f"{what}: utf8dfa::utf8dfa_compiled is the library and its define")

        # The package folder as a consumer's compiler sees it (what CMakeDeps' target would add).
        cxx = os.environ.get("CXX", "c++")
        exe = os.path.join(work, "test_package")
        cmd = [cxx, "-std=c++17", "-I", pkg_include, os.path.join(ROOT, "packaging", "conan", "test_package", "test_package.cpp"),
               "-o", exe]
        if not header_only and libs:
            cmd += ["-DUTF8DFA_SEPARATE_COMPILATION", os.path.join(recipe.package_folder, libs[0])]
        res = subprocess.run(cmd, capture_output=True, text=True)
        check(res.returncode == 0, f"{what}: test_package.cpp compiles against the package: {res.stderr}")
        if res.returncode == 0:
            run = subprocess.run([exe], capture_output=True, text=True)
            mode = "header-only" if header_only else "compiled library"
            check(run.returncode == 0 and run.stdout.startswith(f"utf8dfa {version} ({mode},"),
                  f"{what}: test_package runs: {run.stdout}")
    finally:
        shutil.rmtree(work)


def main():
    install_stand_in()
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)
            print("FAIL:", what)

    with open(os.path.join(ROOT, "include", "utf8dfa", "version.hpp")) as f:
        text = f.read()
    version = ".".join(re.search(rf"#define UTF8DFA_VERSION_{p} (\d+)", text).group(1) for p in ("MAJOR", "MINOR", "PATCH"))

    for header_only in (True, False):
        check_variant(header_only, version, check)

    tester = load_recipe(TEST_RECIPE, "utf8dfa_test_conanfile")()
    tester.tested_reference_str = f"utf8dfa/{version}"
    tester.requirements()
    check(tester.requirements_seen == [f"utf8dfa/{version}"], "test_package requires the tested reference")

    print(f"conan_recipe_test: {'FAILED ' + str(len(failures)) if failures else 'all checks passed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
