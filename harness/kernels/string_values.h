#pragma once
// The values of string tensors (TF_STRING) in kernel cases: seeded text of the classes real
// string kernels get wrong, their JSON form, their exact comparison, and their elements in a
// tensor's memory (TF_TString, tensorflow/core/platform/ctstring.h).
//
// A string HostTensor keeps its elements in `strings`, never in `bytes`: its buffer holds
// pointers, not values. Every class below holds strings whose bytes matter beyond ASCII
// letters: empty ones, some longer than TF_TString's 22 inline bytes (a kernel that writes the
// small form past its capacity, or drops the last byte of a large one, is caught), UTF-8
// multi-byte characters, an embedded NUL (a kernel that measures with strlen stops there),
// spaces at both ends.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/host_tensor.h"

namespace conformance::kernels {

// The string fills of a family case's input (case_families.yaml's `fill:` on a string input):
//   random    seeded text of every class below, mixed
//   special   the edge strings (SpecialStrings), repeated
//   words     seeded lower-case ASCII words, one to four, single spaces
//   integers  decimal integers as text, in [0, 2^17) (StringToNumber of any integer dtype)
//   decimals  decimal numbers as text ("-12.375", "3e-2", "inf", "nan")
//   long      seeded ASCII text of 23 to 80 bytes (never inline in a TF_TString)
//   utf8      seeded text of 1- to 4-byte UTF-8 characters
//   empty     "" everywhere
bool IsStringFillName(std::string_view name);
std::string StringFillNamesText();  // "random, special, words, ..." for errors

// "", "a", 22 and 23 bytes, 64 bytes, UTF-8 ("héllo wörld ✓ 日本"), an embedded NUL,
// spaces and tabs at both ends, digits, upper and lower case.
const std::vector<std::string>& SpecialStrings();

// A string tensor of `shape` holding `values` in turn from `rotation`.
HostTensor StringTensor(const std::vector<std::string>& values, const core::Shape& shape,
                        std::size_t rotation = 0);
// A string tensor of the fill's values, seeded; nullopt for an unknown fill.
std::optional<HostTensor> MakeStringFill(std::string_view fill, const core::Shape& shape,
                                         std::uint64_t seed, std::size_t rotation = 0);

// A string tensor's elements in JSON: the hex of each string's bytes (exact for any byte).
nlohmann::json StringsJson(const HostTensor& tensor);
std::vector<std::string> StringsFromJson(const nlohmann::json& hex_strings);

// A string as a person reads it in a message: quoted, non-printable bytes escaped, at most
// `limit` bytes shown.
std::string QuotedString(std::string_view text, std::size_t limit = 40);

// The first element where two string tensors of one shape differ, and how many do.
struct StringMismatch {
  std::int64_t flat_index = 0;
  std::string index;  // IndexString
  std::string expected, actual;
  std::int64_t mismatched = 0;
};
std::optional<StringMismatch> CompareStrings(const HostTensor& expected, const HostTensor& actual);

// The elements of a string tensor in host memory (`count` TF_TStrings at `data`): written with
// TF_TString_Copy into elements the core initialised, read in any of the four forms a kernel
// may leave, each element checked first (tstring_reader.h: an invalid one reads back as a text
// saying why, so the case fails on the kernel instead of crashing the harness).
void WriteStringElements(const std::vector<std::string>& values, void* data);
std::vector<std::string> ReadStringElements(const void* data, std::int64_t count);
// Resets each element that is not a valid TF_TString to the empty string, leaking what it points
// to: freeing a garbage pointer crashes (in TensorFlow too, which is what the failed comparison
// already says), and the harness frees every output it gave a kernel when the case ends.
void ForgetInvalidStringElements(void* data, std::int64_t count);

}  // namespace conformance::kernels
