#!/usr/bin/env python3
"""Runs packaging/conan/conanfile.py's methods against a minimal stand-in for the `conan` module
(Conan itself is not installed here): set_version, export_sources, package_id, package and
package_info, then compiles a consumer against the resulting package folder.

This checks the recipe's own logic (paths, patterns, the version read from version.hpp, the
package layout and the names it declares), not Conan: the stand-in implements only the few calls
the recipe makes, following Conan 2's documented behaviour (copy() matches fnmatch patterns against
paths relative to src, recursively, and keeps the relative layout under dst)."""

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
        def __init__(self):
            self.props = {}
            self.bindirs = ["bin"]
            self.libdirs = ["lib"]
            self.includedirs = ["include"]

        def set_property(self, name, value):
            self.props[name] = value

    class ConanFile:
        version = None

        def __init__(self):
            self.info = Info()
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
    modules["conan.tools.layout"].basic_layout = noop
    modules["conan.tools.build"].can_run = lambda conanfile: True
    modules["conan.tools.cmake"].cmake_layout = noop
    modules["conan.tools.cmake"].CMake = object
    sys.modules.update(modules)


def load_recipe(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from conan import ConanFile

    classes = [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, ConanFile) and c is not ConanFile]
    assert len(classes) == 1, f"{path}: expected one ConanFile subclass, found {classes}"
    return classes[0]


def main():
    install_stand_in()
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)
            print("FAIL:", what)

    recipe = load_recipe(RECIPE, "utf8dfa_conanfile")()
    with open(os.path.join(ROOT, "include", "utf8dfa", "version.hpp")) as f:
        text = f.read()
    version = ".".join(re.search(rf"#define UTF8DFA_VERSION_{p} (\d+)", text).group(1) for p in ("MAJOR", "MINOR", "PATCH"))

    check(recipe.name == "utf8dfa" and recipe.package_type == "header-library", "name and package_type")
    recipe.recipe_folder = os.path.dirname(RECIPE)
    recipe.set_version()
    check(recipe.version == version, f"set_version read {recipe.version}, version.hpp says {version}")

    work = tempfile.mkdtemp(prefix="conan_recipe_test_")
    try:
        recipe.export_sources_folder = os.path.join(work, "export_source")
        recipe.export_sources()
        for needed in ("include/utf8dfa.hpp", "include/utf8dfa/version.hpp", "LICENSE", "CMakeLists.txt"):
            check(os.path.isfile(os.path.join(recipe.export_sources_folder, needed)), f"exported {needed}")

        recipe.package_id()
        check(recipe.info.cleared, "package_id() clears the settings (one package for all configurations)")

        recipe.source_folder = recipe.export_sources_folder
        recipe.package_folder = os.path.join(work, "package")
        recipe.layout()
        recipe.package()
        src_headers = sorted(
            os.path.relpath(os.path.join(d, n), os.path.join(ROOT, "include"))
            for d, _, ns in os.walk(os.path.join(ROOT, "include"))
            for n in ns
            if n.endswith(".hpp")
        )
        pkg_include = os.path.join(recipe.package_folder, "include")
        pkg_headers = sorted(os.path.relpath(os.path.join(d, n), pkg_include) for d, _, ns in os.walk(pkg_include) for n in ns)
        check(src_headers == pkg_headers, f"packaged headers {pkg_headers} != include/ {src_headers}")
        check(os.path.isfile(os.path.join(recipe.package_folder, "licenses", "LICENSE")), "license packaged")
        others = [
            os.path.relpath(os.path.join(d, n), recipe.package_folder)
            for d, _, ns in os.walk(recipe.package_folder)
            for n in ns
            if not os.path.join(d, n).startswith(pkg_include + os.sep)
        ]
        check(others == [os.path.join("licenses", "LICENSE")], f"nothing else packaged: {others}")

        recipe.package_info()
        props = recipe.cpp_info.props
        check(props.get("cmake_file_name") == "utf8dfa", "cmake_file_name")
        check(props.get("cmake_target_name") == "utf8dfa::utf8dfa", "cmake_target_name")
        check(props.get("pkg_config_name") == "utf8dfa", "pkg_config_name")
        check(recipe.cpp_info.bindirs == [] and recipe.cpp_info.libdirs == [], "no bin/lib dirs")
        check(recipe.cpp_info.includedirs == ["include"], "include dir")

        # The package folder as a consumer's compiler sees it (what CMakeDeps' target would add).
        cxx = os.environ.get("CXX", "c++")
        exe = os.path.join(work, "test_package")
        res = subprocess.run(
            [cxx, "-std=c++17", "-I", pkg_include, os.path.join(ROOT, "packaging", "conan", "test_package", "test_package.cpp"), "-o", exe],
            capture_output=True,
            text=True,
        )
        check(res.returncode == 0, f"test_package.cpp compiles against the package: {res.stderr}")
        if res.returncode == 0:
            run = subprocess.run([exe], capture_output=True, text=True)
            check(run.returncode == 0 and run.stdout.startswith(f"utf8dfa {version}"), f"test_package runs: {run.stdout}")

        tester = load_recipe(TEST_RECIPE, "utf8dfa_test_conanfile")()
        tester.tested_reference_str = f"utf8dfa/{version}"
        tester.requirements()
        check(tester.requirements_seen == [f"utf8dfa/{version}"], "test_package requires the tested reference")
    finally:
        shutil.rmtree(work)

    print(f"conan_recipe_test: {'FAILED ' + str(len(failures)) if failures else 'all checks passed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
