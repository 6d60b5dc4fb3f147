"""Conan 2 recipe for utf8dfa: by default the compiled library (the kernels built once, in a static
library; its users compile in the separate-compilation mode), or the headers alone with
`-o "utf8dfa/*:header_only=True"` (one package for every configuration).

    conan create packaging/conan          # from the checkout's root; runs test_package/
"""

import os
import re

from conan import ConanFile
from conan.tools.build import check_min_cppstd
from conan.tools.cmake import CMake, CMakeToolchain, cmake_layout
from conan.tools.files import copy, load, rmdir


class Utf8dfaConan(ConanFile):
    name = "utf8dfa"
    description = "C++17 UTF-8 codec on one DFA: validate, decode, encode, transcode UTF-8/16/32."
    license = "MIT"
    topics = ("utf-8", "unicode", "validation", "transcoding", "simd")
    package_type = "static-library"
    settings = "os", "arch", "compiler", "build_type"
    # No fPIC option: the library is always position-independent (it links into shared libraries).
    options = {"header_only": [True, False]}
    default_options = {"header_only": False}

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

    def configure(self):
        if self.options.header_only:
            self.package_type = "header-library"

    def validate(self):
        check_min_cppstd(self, 17)

    def layout(self):
        cmake_layout(self, src_folder=".")

    def package_id(self):
        # Header-only: one package for every configuration.
        if self.info.options.header_only:
            self.info.clear()

    def generate(self):
        if self.options.header_only:
            return
        tc = CMakeToolchain(self)
        tc.cache_variables["UTF8DFA_BUILD_TESTS"] = False
        tc.cache_variables["UTF8DFA_BUILD_EXAMPLES"] = False
        tc.cache_variables["UTF8DFA_BUILD_BENCHMARKS"] = False
        tc.cache_variables["UTF8DFA_INSTALL"] = True
        tc.generate()

    def build(self):
        if self.options.header_only:
            return
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def package(self):
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        if self.options.header_only:
            copy(self, "*.hpp", os.path.join(self.source_folder, "include"),
                 os.path.join(self.package_folder, "include"))
            return
        CMake(self).install()
        # Conan writes its own CMake and pkg-config files from package_info() (CMakeDeps,
        # PkgConfigDeps), with the same names.
        rmdir(self, os.path.join(self.package_folder, "share"))
        rmdir(self, os.path.join(self.package_folder, "lib", "pkgconfig"))

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "utf8dfa")
        self.cpp_info.set_property("cmake_target_name", "utf8dfa::utf8dfa")
        self.cpp_info.set_property("pkg_config_name", "utf8dfa")
        # The CMake package's targets: utf8dfa::header_only always, utf8dfa::utf8dfa_compiled with the
        # library; utf8dfa::utf8dfa (CMakeDeps' target of the whole package) is the library when
        # there is one, else the headers.
        headers = self.cpp_info.components["header_only"]
        headers.set_property("cmake_target_name", "utf8dfa::header_only")
        headers.set_property("pkg_config_name", "utf8dfa-header-only")
        headers.bindirs = []
        headers.libdirs = []
        if not self.options.header_only:
            compiled = self.cpp_info.components["utf8dfa_compiled"]
            compiled.set_property("cmake_target_name", "utf8dfa::utf8dfa_compiled")
            compiled.set_property("pkg_config_name", "utf8dfa-compiled")
            compiled.bindirs = []
            compiled.libs = ["utf8dfa_compiled"]
            compiled.defines = ["UTF8DFA_SEPARATE_COMPILATION"]
            compiled.requires = ["header_only"]
