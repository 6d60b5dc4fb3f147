// Test-suite include: Catch2 v3 where installed, else v2 (Debian's catch2 package).
#ifndef UTF8DFA_TESTS_CATCH_HPP
#define UTF8DFA_TESTS_CATCH_HPP
#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>
#else
#include <catch2/catch.hpp>
#endif
#endif
