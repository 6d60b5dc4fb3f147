# Builds the project against the generated single header (option UTF8DFA_TEST_SINGLE_HEADER).
#
# utf8dfa_generate_single_header(DIR): runs tools/amalgamate.py into DIR/include/utf8dfa.hpp now and
# again at configure time whenever a header under include/ changes, and writes DIR/forward/, one stub
# per project header (DIR/forward/utf8dfa/x.hpp contains `#include <utf8dfa.hpp>`).
# utf8dfa_use_forwarding_stubs(DIR subdir...): adds DIR/forward to the include path of every
# compiled target defined in those source subdirectories (recursively).

find_package(Python3 REQUIRED COMPONENTS Interpreter)

function(utf8dfa_generate_single_header dir)
  set(src "${PROJECT_SOURCE_DIR}/include")
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE "${src}" "${src}/utf8dfa/*.hpp")
  foreach(h IN LISTS headers)
    set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${src}/${h}")
  endforeach()
  set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    "${src}/utf8dfa.hpp" "${PROJECT_SOURCE_DIR}/tools/amalgamate.py")
  execute_process(
    COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tools/amalgamate.py"
            --root "${PROJECT_SOURCE_DIR}" -o "${dir}/include/utf8dfa.hpp"
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tools/amalgamate.py failed (${rc})")
  endif()
  file(REMOVE_RECURSE "${dir}/forward")
  foreach(h IN LISTS headers)
    file(WRITE "${dir}/forward/${h}"
      "// Generated for the single-header build: every facility comes from the single header.\n"
      "#include <utf8dfa.hpp>\n")
  endforeach()
endfunction()

function(_utf8dfa_forward_dir forward dir)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(type MATCHES "EXECUTABLE|LIBRARY" AND NOT type STREQUAL "INTERFACE_LIBRARY")
      target_include_directories(${t} PRIVATE "${forward}")
    endif()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _utf8dfa_forward_dir("${forward}" "${sub}")
  endforeach()
endfunction()

function(utf8dfa_use_forwarding_stubs dir)
  foreach(sub IN LISTS ARGN)
    if(EXISTS "${PROJECT_SOURCE_DIR}/${sub}/CMakeLists.txt")
      get_property(known DIRECTORY "${PROJECT_SOURCE_DIR}" PROPERTY SUBDIRECTORIES)
      if("${PROJECT_SOURCE_DIR}/${sub}" IN_LIST known)
        _utf8dfa_forward_dir("${dir}/forward" "${PROJECT_SOURCE_DIR}/${sub}")
      endif()
    endif()
  endforeach()
endfunction()
