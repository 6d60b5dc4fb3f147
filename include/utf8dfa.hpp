// utf8dfa: a header-only UTF-8 codec on one DFA. Include this header for everything.
#ifndef UTF8DFA_HPP
#define UTF8DFA_HPP

#include "utf8dfa/boundary.hpp"
#include "utf8dfa/bounded.hpp"
#include "utf8dfa/config.hpp"
#include "utf8dfa/count.hpp"
#include "utf8dfa/decode.hpp"
#include "utf8dfa/detect.hpp"
#include "utf8dfa/dialect.hpp"
#include "utf8dfa/encode.hpp"
#include "utf8dfa/error.hpp"
#include "utf8dfa/iterator.hpp"
#include "utf8dfa/latin1.hpp"
#include "utf8dfa/output.hpp"
#include "utf8dfa/policy.hpp"
#include "utf8dfa/stream.hpp"
#include "utf8dfa/transcode.hpp"
#include "utf8dfa/utf16.hpp"
#include "utf8dfa/utf_views.hpp"
#include "utf8dfa/validate.hpp"
#include "utf8dfa/version.hpp"
#include "utf8dfa/views.hpp"
#include "utf8dfa/wide.hpp"

#endif
