"""Conan 2 recipe for utf8dfa, a header-only library.

    conan create packaging/conan          # from the checkout's root; runs test_package/
"""

import os
import re

from conan import ConanFile
from conan.tools.files import copy, load
from conan.tools.layout import basic_layout


class Utf8dfaConan(ConanFile):
    name = "utf8dfa"
    description = "Header-only C++17 UTF-8 codec on one DFA: validate, decode, encode, transcode UTF-8/16/32."
    license = "MIT"
    topics = ("utf-8", "unicode", "validation", "transcoding", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    no_copy_source = True

    def export_sources(self):
        # The recipe lives in packaging/conan/; the sources are the checkout around it.
        root = os.path.join(self.recipe_folder, "..", "..")
        for pattern in ("CMakeLists.txt", "LICENSE", "cmake/*", "include/*"):
            copy(self, pattern, root, self.export_sources_folder)

    def set_version(self):
        # include/utf8dfa/version.hpp is the single source of the version.
        if self.version:
            return
        text = load(self, os.path.join(self.recipe_folder, "..", "..", "include", "utf8dfa", "version.hpp"))
        parts = [re.search(rf"#define UTF8DFA_VERSION_{p} (\d+)", text).group(1) for p in ("MAJOR", "MINOR", "PATCH")]
        self.version = ".".join(parts)

    def layout(self):
        basic_layout(self, src_folder=".")

    def package_id(self):
        # Header-only: one package for every configuration.
        self.info.clear()

    def package(self):
        # What `cmake --install` puts under include/, minus the CMake and pkg-config files: Conan
        # writes its own from package_info() (CMakeDeps, PkgConfigDeps) with the same names.
        copy(self, "*.hpp", os.path.join(self.source_folder, "include"), os.path.join(self.package_folder, "include"))
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))

    def package_info(self):
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []
        self.cpp_info.set_property("cmake_file_name", "utf8dfa")
        self.cpp_info.set_property("cmake_target_name", "utf8dfa::utf8dfa")
        self.cpp_info.set_property("pkg_config_name", "utf8dfa")
