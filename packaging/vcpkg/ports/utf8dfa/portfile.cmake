# Overlay port: vcpkg install utf8dfa --overlay-ports=<checkout>/packaging/vcpkg/ports
# Builds from the checkout this port sits in (two folders up from packaging/); a registry port would
# use vcpkg_from_github(OUT_SOURCE_PATH SOURCE_PATH REPO ... REF v${VERSION} SHA512 ...) instead.
get_filename_component(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)

# The static library utf8dfa_compiled (the kernels built once), which utf8dfa::utf8dfa links; the
# headers alone are utf8dfa::header_only, installed too.
vcpkg_check_linkage(ONLY_STATIC_LIBRARY)

vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        -DUTF8DFA_BUILD_TESTS=OFF
        -DUTF8DFA_BUILD_EXAMPLES=OFF
        -DUTF8DFA_BUILD_BENCHMARKS=OFF
        -DUTF8DFA_INSTALL=ON
)
vcpkg_cmake_install()

# The project installs its CMake config in share/utf8dfa (already vcpkg's place) and utf8dfa.pc
# (relocatable: its prefix is derived from ${pcfiledir}) in lib/pkgconfig.
vcpkg_cmake_config_fixup(PACKAGE_NAME utf8dfa CONFIG_PATH share/utf8dfa)
vcpkg_fixup_pkgconfig()

file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/share/doc" "${CURRENT_PACKAGES_DIR}/debug/include"
                    "${CURRENT_PACKAGES_DIR}/debug/share")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
