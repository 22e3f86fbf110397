#include "kernels/string_values.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "kernels/tstring_reader.h"
#include "tensorflow/c/tf_tstring.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 8> kFillNames = {"random",   "special", "words", "integers",
                                                        "decimals", "long",    "utf8",  "empty"};

std::uint64_t Next(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::size_t Below(std::uint64_t& state, std::size_t bound) {
  return static_cast<std::size_t>(Next(state) % bound);
}

std::string Word(std::uint64_t& state) {
  std::string word(1 + Below(state, 9), 'a');
  for (char& c : word) c = static_cast<char>('a' + Below(state, 26));
  return word;
}

std::string Words(std::uint64_t& state) {
  std::string text = Word(state);
  for (std::size_t n = Below(state, 4); n > 0; --n) text += " " + Word(state);
  return text;
}

// Non-negative and below 2^17, so every integer dtype of StringToNumber reads it (a family
// gives the signs and the extremes as `text:`).
std::string Integer(std::uint64_t& state) { return std::to_string(Below(state, 131072)); }

std::string Decimal(std::uint64_t& state) {
  static constexpr std::array<const char*, 4> kSpecial = {"inf", "-inf", "nan", "1e-3"};
  if (Below(state, 6) == 0) return kSpecial[Below(state, kSpecial.size())];
  // Eighths: exact in binary, so every dtype reads the same value back.
  const double value = static_cast<double>(Below(state, 20000)) / 8.0 - 1000.0;
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

std::string Long(std::uint64_t& state) {
  std::string text = Words(state);
  const std::size_t size = 23 + Below(state, 58);
  while (text.size() < size) text += " " + Word(state);
  text.resize(size);
  return text;
}

std::string Utf8(std::uint64_t& state) {
  // One character of each length: é (2 bytes), ✓ and 日 (3), 𝄞 (4), and ASCII.
  static constexpr std::array<std::string_view, 6> kChars = {
      "e", "\xc3\xa9", "\xe2\x9c\x93", "\xe6\x97\xa5", "\xf0\x9d\x84\x9e", " "};
  std::string text;
  for (std::size_t n = 1 + Below(state, 12); n > 0; --n) text += kChars[Below(state, 6)];
  return text;
}

// One value of a fill; `i` is the element's index (special, empty).
std::string FillValue(std::string_view fill, std::uint64_t& state, std::size_t i,
                      std::size_t rotation) {
  if (fill == "special") {
    const auto& all = SpecialStrings();
    return all[(i + rotation) % all.size()];
  }
  if (fill == "words") return Words(state);
  if (fill == "integers") return Integer(state);
  if (fill == "decimals") return Decimal(state);
  if (fill == "long") return Long(state);
  if (fill == "utf8") return Utf8(state);
  if (fill == "empty") return "";
  // random: every class in turn, so each tensor of a few elements holds several.
  switch (Below(state, 6)) {
    case 0: return Words(state);
    case 1: return Long(state);
    case 2: return Utf8(state);
    case 3: return Integer(state);
    case 4: return "";
    default: return Word(state);
  }
}

}  // namespace

bool IsStringFillName(std::string_view name) {
  return std::find(kFillNames.begin(), kFillNames.end(), name) != kFillNames.end();
}

std::string StringFillNamesText() {
  std::string text;
  for (std::string_view name : kFillNames) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

const std::vector<std::string>& SpecialStrings() {
  static const std::vector<std::string> values = {
      "",
      "a",
      "exactly 22 bytes long!",   // the most a TF_TString holds inline
      "twenty-three bytes long",  // the fewest it holds out of line
      std::string(64, 'x'),       // out of line, a capacity step
      "h\xc3\xa9llo w\xc3\xb6rld \xe2\x9c\x93 \xe6\x97\xa5\xe6\x9c\xac",  // UTF-8
      std::string("nul\0inside", 10),                                     // strlen stops at byte 3
      "  \tspaces at both ends\t  ",
      "12345",
      "Mixed CASE Text",
  };
  return values;
}

HostTensor StringTensor(const std::vector<std::string>& values, const core::Shape& shape,
                        std::size_t rotation) {
  HostTensor tensor{TF_STRING, shape, {}};
  const std::int64_t n = tensor.NumElements();
  tensor.strings.reserve(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)));
  for (std::int64_t i = 0; i < n && !values.empty(); ++i)
    tensor.strings.push_back(values[(static_cast<std::size_t>(i) + rotation) % values.size()]);
  return tensor;
}

std::optional<HostTensor> MakeStringFill(std::string_view fill, const core::Shape& shape,
                                         std::uint64_t seed, std::size_t rotation) {
  if (!IsStringFillName(fill)) return std::nullopt;
  HostTensor tensor{TF_STRING, shape, {}};
  std::uint64_t state = seed;
  for (std::int64_t i = 0; i < tensor.NumElements(); ++i)
    tensor.strings.push_back(FillValue(fill, state, static_cast<std::size_t>(i), rotation));
  return tensor;
}

json StringsJson(const HostTensor& tensor) {
  static constexpr char kDigits[] = "0123456789abcdef";
  json strings = json::array();
  for (const std::string& value : tensor.strings) {
    std::string hex;
    hex.reserve(2 * value.size());
    for (const char c : value) {
      const auto byte = static_cast<unsigned char>(c);
      hex.push_back(kDigits[byte >> 4]);
      hex.push_back(kDigits[byte & 15]);
    }
    strings.push_back(std::move(hex));
  }
  return strings;
}

std::vector<std::string> StringsFromJson(const json& hex_strings) {
  const auto nibble = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
  std::vector<std::string> values;
  for (const json& item : hex_strings) {
    const std::string hex = item.get<std::string>();
    std::string value(hex.size() / 2, '\0');
    for (std::size_t i = 0; i < value.size(); ++i)
      value[i] = static_cast<char>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
    values.push_back(std::move(value));
  }
  return values;
}

std::string QuotedString(std::string_view text, std::size_t limit) {
  std::string quoted = "\"";
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '"' || byte == '\\') {
      quoted += '\\';
      quoted += static_cast<char>(byte);
    } else if (byte >= 0x20 && byte < 0x7f) {
      quoted += static_cast<char>(byte);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      quoted += escaped;
    }
  }
  quoted += "\"";
  if (text.size() > limit) quoted += "... (" + std::to_string(text.size()) + " bytes)";
  return quoted;
}

std::optional<StringMismatch> CompareStrings(const HostTensor& expected, const HostTensor& actual) {
  std::optional<StringMismatch> first;
  const std::size_t n = std::min(expected.strings.size(), actual.strings.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (expected.strings[i] == actual.strings[i]) continue;
    if (!first) {
      first = StringMismatch{static_cast<std::int64_t>(i),
                             IndexString(expected.shape, static_cast<std::int64_t>(i)),
                             expected.strings[i], actual.strings[i], 0};
    }
    ++first->mismatched;
  }
  return first;
}

void WriteStringElements(const std::vector<std::string>& values, void* data) {
  auto* elements = static_cast<TF_TString*>(data);
  for (std::size_t i = 0; i < values.size(); ++i)
    TF_TString_Copy(&elements[i], values[i].data(), values[i].size());
}

std::vector<std::string> ReadStringElements(const void* data, std::int64_t count) {
  const auto* elements = static_cast<const TF_TString*>(data);
  std::vector<std::string> values;
  if (data == nullptr || count <= 0) return values;
  TStringReader reader;
  for (std::int64_t i = 0; i < count; ++i) values.push_back(reader.Read(elements[i]));
  return values;
}

void ForgetInvalidStringElements(void* data, std::int64_t count) {
  if (data == nullptr) return;
  auto* elements = static_cast<TF_TString*>(data);
  TStringReader reader;
  for (std::int64_t i = 0; i < count; ++i)
    if (!reader.Valid(elements[i])) TF_TString_Init(&elements[i]);
}

}  // namespace conformance::kernels
