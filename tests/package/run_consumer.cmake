# One consumer test: cmake -DROUTE=<route> -DSOURCE_DIR=<checkout> -DWORK_DIR=<fresh dir> -DCXX=<compiler>
#   -DGENERATOR=<cmake generator> [-DMAKE_PROGRAM=...] [-DPREFIX=<install prefix>] [-DPYTHON=...]
#   [-DPKG_CONFIG=<pkg-config>] -P run_consumer.cmake
# Each route builds the snippet the README shows for it (the files next to this script) and runs it.
cmake_minimum_required(VERSION 3.14)

set(HERE "${CMAKE_CURRENT_LIST_DIR}")
file(READ "${SOURCE_DIR}/include/utf8dfa/version.hpp" _v)
foreach(part MAJOR MINOR PATCH)
  string(REGEX MATCH "#define UTF8DFA_VERSION_${part} ([0-9]+)" _ "${_v}")
  set(${part} "${CMAKE_MATCH_1}")
endforeach()
set(VERSION "${MAJOR}.${MINOR}.${PATCH}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "command failed (${rc}): ${cmd}\n${out}")
  endif()
  set(LAST_OUTPUT "${out}" PARENT_SCOPE)
endfunction()

set(GEN_ARGS -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}" -DCMAKE_BUILD_TYPE=Release)
if(MAKE_PROGRAM)
  list(APPEND GEN_ARGS "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()

# A fresh source folder with the consumer's files and the shared main.cpp.
function(fresh_source route)
  file(REMOVE_RECURSE "${WORK_DIR}")
  file(MAKE_DIRECTORY "${WORK_DIR}/src")
  file(GLOB files "${HERE}/${route}/*")
  file(COPY ${files} "${HERE}/consumer/main.cpp" DESTINATION "${WORK_DIR}/src")
endfunction()

# Runs the consumer and checks it reports this version and the mode it was built in: "compiled
# library" (utf8dfa::utf8dfa by default, the installed packages) or "header-only".
function(run_main exe mode)
  run("${exe}")
  if(NOT LAST_OUTPUT MATCHES "^utf8dfa ${VERSION} \\(${mode}[,)]")
    message(FATAL_ERROR "unexpected consumer output (expected the ${mode} mode): ${LAST_OUTPUT}")
  endif()
  message(STATUS "consumer says: ${LAST_OUTPUT}")
endfunction()

function(cmake_consumer src build)
  run("${CMAKE_COMMAND}" -S "${src}" -B "${build}" ${GEN_ARGS} ${ARGN})
  run("${CMAKE_COMMAND}" --build "${build}")
endfunction()

# `sh build.sh` in the consumer folder with `c++` meaning the compiler under test.
function(shell_consumer mode)
  file(MAKE_DIRECTORY "${WORK_DIR}/bin")
  file(CREATE_LINK "${CXX}" "${WORK_DIR}/bin/c++" SYMBOLIC)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PATH=${WORK_DIR}/bin:$ENV{PATH}" ${ARGN} sh build.sh
    WORKING_DIRECTORY "${WORK_DIR}/src" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "build.sh failed (${rc}):\n${out}")
  endif()
  run_main("${WORK_DIR}/src/main" "${mode}")
endfunction()

# The folder of the installed utf8dfa.pc under `prefix` (lib/pkgconfig, lib64/pkgconfig: the
# library's GNUInstallDirs libdir; share/pkgconfig when header-only).
function(pc_dir prefix out)
  file(GLOB pcs "${prefix}/lib*/pkgconfig/utf8dfa.pc" "${prefix}/lib*/*/pkgconfig/utf8dfa.pc"
       "${prefix}/share/pkgconfig/utf8dfa.pc")
  list(LENGTH pcs count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "expected one installed utf8dfa.pc under ${prefix}, found: ${pcs}")
  endif()
  get_filename_component(dir "${pcs}" DIRECTORY)
  set(${out} "${dir}" PARENT_SCOPE)
endfunction()

function(install_to prefix)
  set(build "${WORK_DIR}/build")
  run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${build}" ${GEN_ARGS} ${ARGN})
  run("${CMAKE_COMMAND}" --build "${build}")
  run("${CMAKE_COMMAND}" --install "${build}" --prefix "${prefix}")
endfunction()

if(ROUTE STREQUAL "install")
  file(REMOVE_RECURSE "${WORK_DIR}" "${PREFIX}")
  install_to("${PREFIX}" -DUTF8DFA_BUILD_TESTS=OFF -DUTF8DFA_BUILD_EXAMPLES=OFF -DUTF8DFA_BUILD_BENCHMARKS=OFF)
  foreach(f include/utf8dfa.hpp include/utf8dfa/version.hpp share/utf8dfa/utf8dfaConfig.cmake
            share/utf8dfa/utf8dfaConfigVersion.cmake)
    if(NOT EXISTS "${PREFIX}/${f}")
      message(FATAL_ERROR "not installed: ${f}")
    endif()
  endforeach()
  pc_dir("${PREFIX}" pcdir)  # one utf8dfa.pc, with the library by default
  # Every header of include/ is installed, and nothing but headers, CMake/pkg-config metadata, the
  # license and the static library of utf8dfa::utf8dfa_compiled.
  file(GLOB_RECURSE source_headers RELATIVE "${SOURCE_DIR}/include" "${SOURCE_DIR}/include/*.hpp")
  file(GLOB_RECURSE installed_headers RELATIVE "${PREFIX}/include" "${PREFIX}/include/*.hpp")
  list(SORT source_headers)
  list(SORT installed_headers)
  if(NOT source_headers STREQUAL installed_headers)
    message(FATAL_ERROR "installed headers differ from include/:\n${installed_headers}\nvs\n${source_headers}")
  endif()
  file(GLOB_RECURSE all RELATIVE "${PREFIX}" "${PREFIX}/*")
  foreach(f IN LISTS all)
    if(NOT f MATCHES "^(include/utf8dfa(/.*)?\\.hpp|share/utf8dfa/.*\\.cmake|lib[^/]*(/[^/]+)?/pkgconfig/utf8dfa\\.pc|share/doc/utf8dfa/LICENSE|lib[^/]*(/[^/]+)?/libutf8dfa_compiled\\.a)$")
      message(FATAL_ERROR "unexpected installed file: ${f}")
    endif()
  endforeach()

elseif(ROUTE STREQUAL "add_subdirectory" OR ROUTE STREQUAL "fetchcontent")
  fresh_source(${ROUTE})
  file(MAKE_DIRECTORY "${WORK_DIR}/src/third_party")
  file(CREATE_LINK "${SOURCE_DIR}" "${WORK_DIR}/src/third_party/utf8dfa" SYMBOLIC)
  cmake_consumer("${WORK_DIR}/src" "${WORK_DIR}/build" -DFETCHCONTENT_FULLY_DISCONNECTED=ON)
  # As a subproject, utf8dfa builds none of its own tests, examples or benchmarks.
  if(EXISTS "${WORK_DIR}/build/third_party/utf8dfa/tests" OR EXISTS "${WORK_DIR}/build/_deps/utf8dfa-build/tests")
    message(FATAL_ERROR "utf8dfa configured its tests as a subproject")
  endif()
  run_main("${WORK_DIR}/build/main" "compiled library")

elseif(ROUTE STREQUAL "find_package")
  fresh_source(find_package)
  cmake_consumer("${WORK_DIR}/src" "${WORK_DIR}/build" "-DCMAKE_PREFIX_PATH=${PREFIX}")
  run_main("${WORK_DIR}/build/main" "compiled library")

elseif(ROUTE STREQUAL "compiled")
  # utf8dfa::utf8dfa_compiled from the installed package: the consumer is built in the separate
  # compilation mode (the target passes UTF8DFA_SEPARATE_COMPILATION on: separate_check.cpp fails to
  # compile otherwise), so it links only because the library holds the kernels.
  fresh_source(compiled)
  cmake_consumer("${WORK_DIR}/src" "${WORK_DIR}/build" "-DCMAKE_PREFIX_PATH=${PREFIX}")
  run_main("${WORK_DIR}/build/main" "compiled library")

elseif(ROUTE STREQUAL "header_only")
  # utf8dfa::header_only from the installed package (the default target is the compiled library).
  fresh_source(header_only)
  cmake_consumer("${WORK_DIR}/src" "${WORK_DIR}/build" "-DCMAKE_PREFIX_PATH=${PREFIX}")
  run_main("${WORK_DIR}/build/main" "header-only")

elseif(ROUTE STREQUAL "single_header_separate")
  # The committed single header in the separate compilation mode: UTF8DFA_IMPLEMENTATION in one
  # file (build.sh also checks that main.o holds no kernel).
  fresh_source(single_header_separate)
  file(COPY "${SOURCE_DIR}/single_include/utf8dfa.hpp" DESTINATION "${WORK_DIR}/src")
  shell_consumer("compiled library")

elseif(ROUTE STREQUAL "version_check")
  # SameMajorVersion: any request up to this version within the major is found, nothing else.
  math(EXPR next_major "${MAJOR} + 1")
  math(EXPR next_minor "${MINOR} + 1")
  foreach(request "${MAJOR}" "${MAJOR}.${MINOR}" "${VERSION}" "${next_major}" "${next_major}.0" "${MAJOR}.${next_minor}")
    file(REMOVE_RECURSE "${WORK_DIR}")
    execute_process(COMMAND "${CMAKE_COMMAND}" -S "${HERE}/version_check" -B "${WORK_DIR}" "-DREQUEST=${request}"
      "-DCMAKE_PREFIX_PATH=${PREFIX}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(request STREQUAL next_major OR request STREQUAL "${next_major}.0" OR request STREQUAL "${MAJOR}.${next_minor}")
      set(expect_found FALSE)
    else()
      set(expect_found TRUE)
    endif()
    if(rc EQUAL 0 AND NOT expect_found)
      message(FATAL_ERROR "find_package(utf8dfa ${request}) succeeded against ${VERSION}:\n${out}")
    elseif(NOT rc EQUAL 0 AND expect_found)
      message(FATAL_ERROR "find_package(utf8dfa ${request}) failed against ${VERSION}:\n${out}")
    elseif(NOT expect_found AND NOT out MATCHES "utf8dfaConfigVersion|version")
      message(FATAL_ERROR "find_package(utf8dfa ${request}) failed for another reason:\n${out}")
    endif()
    message(STATUS "find_package(utf8dfa ${request}) against ${VERSION}: found=${expect_found} as expected")
  endforeach()

elseif(ROUTE STREQUAL "pkgconfig")
  fresh_source(pkgconfig)
  pc_dir("${PREFIX}" pcdir)
  set(pc "PKG_CONFIG_PATH=${pcdir}")
  run("${CMAKE_COMMAND}" -E env "${pc}" "${PKG_CONFIG}" --modversion utf8dfa)
  string(STRIP "${LAST_OUTPUT}" modversion)
  run("${CMAKE_COMMAND}" -E env "${pc}" "${PKG_CONFIG}" --cflags utf8dfa)
  string(STRIP "${LAST_OUTPUT}" cflags)
  string(REGEX REPLACE "^-I([^ ]+).*$" "\\1" cflags_dir "${cflags}")
  get_filename_component(cflags_dir "${cflags_dir}" REALPATH)
  get_filename_component(expected_dir "${PREFIX}/include" REALPATH)
  if(NOT modversion STREQUAL VERSION OR NOT cflags MATCHES "^-I[^ ]+ -DUTF8DFA_SEPARATE_COMPILATION$" OR NOT cflags_dir STREQUAL expected_dir)
    message(FATAL_ERROR "pkg-config says version '${modversion}', cflags '${cflags}'")
  endif()
  shell_consumer("compiled library" "${pc}")

elseif(ROUTE STREQUAL "single_header")
  # The committed single header, alone in an empty folder with main.cpp: no CMake, no include/.
  fresh_source(single_header)
  file(COPY "${SOURCE_DIR}/single_include/utf8dfa.hpp" DESTINATION "${WORK_DIR}/src")
  shell_consumer("header-only")

elseif(ROUTE STREQUAL "conan_test_package")
  # Conan's test_package CMake project, built against the CMake-installed package (conan is not
  # available offline; the recipe's cmake_file_name/cmake_target_name match the installed config).
  file(REMOVE_RECURSE "${WORK_DIR}")
  cmake_consumer("${SOURCE_DIR}/packaging/conan/test_package" "${WORK_DIR}/build" "-DCMAKE_PREFIX_PATH=${PREFIX}")
  run_main("${WORK_DIR}/build/test_package" "compiled library")
  # The recipe: Python syntax only (no conan module here), its metadata against the library's.
  run("${PYTHON}" -c "import ast,sys; [ast.parse(open(f).read(), f) for f in sys.argv[1:]]"
    "${SOURCE_DIR}/packaging/conan/conanfile.py" "${SOURCE_DIR}/packaging/conan/test_package/conanfile.py")
  file(READ "${SOURCE_DIR}/packaging/conan/conanfile.py" recipe)
  foreach(needle "package_type = \"static-library\"" "\"header_only\": False" "self.info.clear()" "\"cmake_file_name\", \"utf8dfa\""
          "\"cmake_target_name\", \"utf8dfa::utf8dfa\"" "\"pkg_config_name\", \"utf8dfa\"")
    string(FIND "${recipe}" "${needle}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "conanfile.py lacks ${needle}")
    endif()
  endforeach()

elseif(ROUTE STREQUAL "vcpkg")
  # The overlay port's steps done by hand: its configure options, install, then what
  # vcpkg_cmake_config_fixup, vcpkg_fixup_pkgconfig, vcpkg_install_copyright and the usage file do.
  set(port "${SOURCE_DIR}/packaging/vcpkg/ports/utf8dfa")
  file(READ "${port}/vcpkg.json" manifest)
  string(JSON name GET "${manifest}" name)
  string(JSON port_version GET "${manifest}" version)
  if(NOT name STREQUAL "utf8dfa" OR NOT port_version STREQUAL VERSION)
    message(FATAL_ERROR "vcpkg.json says ${name} ${port_version}, version.hpp says ${VERSION}")
  endif()
  file(READ "${port}/portfile.cmake" portfile)
  # The overlay port builds the checkout it sits in.
  string(REGEX MATCH "get_filename_component\\(SOURCE_PATH \"\\\${CMAKE_CURRENT_LIST_DIR}/([./]+)\" ABSOLUTE\\)" _ "${portfile}")
  get_filename_component(port_source "${port}/${CMAKE_MATCH_1}" ABSOLUTE)
  get_filename_component(real_source "${SOURCE_DIR}" ABSOLUTE)
  if(NOT CMAKE_MATCH_1 OR NOT port_source STREQUAL real_source)
    message(FATAL_ERROR "portfile's SOURCE_PATH is '${port_source}', not the checkout '${real_source}'")
  endif()
  string(REGEX MATCH "vcpkg_cmake_configure\\(([^)]*)\\)" _ "${portfile}")
  string(REGEX MATCHALL "-D[A-Za-z0-9_]+=[A-Za-z0-9_]+" options "${CMAKE_MATCH_1}")
  string(REGEX MATCH "CONFIG_PATH ([^ )]+)" _ "${portfile}")
  set(config_path "${CMAKE_MATCH_1}")
  if(NOT options OR NOT config_path)
    message(FATAL_ERROR "could not read the options and CONFIG_PATH from portfile.cmake")
  endif()
  message(STATUS "portfile options: ${options}; config path ${config_path}")
  file(REMOVE_RECURSE "${WORK_DIR}")
  set(pkg "${WORK_DIR}/packages/utf8dfa_x64-linux")
  install_to("${pkg}" ${options})
  pc_dir("${pkg}" pcdir)
  if(NOT EXISTS "${pkg}/${config_path}/utf8dfaConfig.cmake")
    message(FATAL_ERROR "the port's CONFIG_PATH or the .pc location does not match what the project installs")
  endif()
  # vcpkg_cmake_config_fixup moves the config to share/<port> and rewrites its relative paths; the
  # project installs it there already, which is what makes this emulation faithful.
  if(NOT config_path STREQUAL "share/utf8dfa")
    message(FATAL_ERROR "CONFIG_PATH ${config_path}: this test only emulates a fixup that needs no move")
  endif()
  file(REMOVE_RECURSE "${pkg}/share/doc")
  file(COPY "${SOURCE_DIR}/LICENSE" "${port}/usage" DESTINATION "${pkg}/share/utf8dfa")
  file(RENAME "${pkg}/share/utf8dfa/LICENSE" "${pkg}/share/utf8dfa/copyright")
  # A consumer as vcpkg's toolchain would configure it (CMAKE_PREFIX_PATH = the installed tree),
  # written exactly as the usage file says.
  file(STRINGS "${port}/usage" usage_lines REGEX "^  [a-z_]+\\(")
  file(MAKE_DIRECTORY "${WORK_DIR}/src")
  file(COPY "${HERE}/consumer/main.cpp" DESTINATION "${WORK_DIR}/src")
  set(lists "cmake_minimum_required(VERSION 3.14)\nproject(consumer LANGUAGES CXX)\nadd_executable(main main.cpp)\n")
  foreach(line IN LISTS usage_lines)
    string(STRIP "${line}" line)
    string(APPEND lists "${line}\n")
  endforeach()
  file(WRITE "${WORK_DIR}/src/CMakeLists.txt" "${lists}")
  cmake_consumer("${WORK_DIR}/src" "${WORK_DIR}/consumer-build" "-DCMAKE_PREFIX_PATH=${pkg}")
  run_main("${WORK_DIR}/consumer-build/main" "compiled library")
  if(PKG_CONFIG)
    run("${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${pcdir}" "${PKG_CONFIG}" --cflags utf8dfa)
  endif()

else()
  message(FATAL_ERROR "unknown ROUTE '${ROUTE}'")
endif()
