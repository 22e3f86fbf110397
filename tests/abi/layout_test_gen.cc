// Generates the ABI layout tests from the golden tables.
//
//   abi_layout_test_gen <tf_layout.json> <tf_enums.json> <out.c> <out.cc>
//
// Both outputs include the project's TensorFlow-compatible headers and check every entry of
// the tables (struct sizeof/alignof, member offset/size/type, *_STRUCT_SIZE values, enum values,
// API version macros, TF_Bool) twice:
//   * at compile time (_Static_assert / static_assert), so a mismatch breaks the build with a
//     message naming the struct and member;
//   * at run time, so the test executable reports how many entries it verified and fails on a
//     mismatch (useful when a check is ever weakened to a warning).
// The C++ output additionally counts each struct's members with aggregate initialisation.
// TF_DataTypeSize is deliberately not checked here: it is a function of the core library.

#include <cstdio>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using Json = nlohmann::ordered_json;

struct Member {
  std::string name;
  long long offset = 0;
  long long size = 0;
  std::string c_type;
};

struct StructSizeConstant {
  std::string name;        // e.g. SP_PLATFORM_STRUCT_SIZE
  bool is_macro = true;    // false: a `const size_t` object (TF_InputRange_Args_STRUCT_SIZE)
  std::string end_member;  // member TF_OFFSET_OF_END is taken of
  long long value = 0;
};

struct Struct {
  std::string name;
  std::string origin;  // header path or "other_c_api_structs"
  long long size = 0;
  long long align = 0;
  std::vector<Member> members;
  bool has_size_constant = false;
  StructSizeConstant size_constant;
};

struct EnumValue {
  std::string enum_type;
  std::string name;
  long long value = 0;
};

struct Constant {
  std::string name;
  long long value = 0;
};

struct Tables {
  std::vector<Struct> structs;
  std::vector<EnumValue> enum_values;
  std::vector<std::string> enum_types;  // checked to be 4 bytes
  std::vector<Constant> constants;
  std::string bool_type;
};

Json ReadJson(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  return Json::parse(in);
}

// "TF_InputRange_Args_STRUCT_SIZE (in kernels.h a `const size_t` object ...)" -> name + kind.
StructSizeConstant ParseSizeConstant(const std::string& text) {
  static const std::regex kLeadingIdentifier(R"(^\s*([A-Za-z_][A-Za-z0-9_]*))");
  std::smatch match;
  if (!std::regex_search(text, match, kLeadingIdentifier)) {
    throw std::runtime_error("cannot parse struct size constant: " + text);
  }
  StructSizeConstant constant;
  constant.name = match[1];
  constant.is_macro = text.find("const size_t") == std::string::npos;
  return constant;
}

// The tables spell a no-argument function pointer as `(*)()`; C with -Wstrict-prototypes wants
// `(*)(void)`, which is the same type in both languages.
std::string NormaliseType(const std::string& c_type) {
  static const std::regex kEmptyParams(R"(\(\s*\)\s*$)");
  return std::regex_replace(c_type, kEmptyParams, "(void)");
}

void AddStructs(const Json& structs, const std::string& origin, Tables& tables) {
  for (const auto& [name, s] : structs.items()) {
    Struct out;
    out.name = name;
    out.origin = origin;
    out.size = s.at("sizeof").get<long long>();
    out.align = s.at("alignof").get<long long>();
    for (const auto& f : s.at("fields")) {
      out.members.push_back(Member{f.at("name").get<std::string>(), f.at("offset").get<long long>(),
                                   f.at("size").get<long long>(),
                                   NormaliseType(f.at("c_type").get<std::string>())});
    }
    if (s.contains("struct_size_macro") && !s.at("struct_size_macro").is_null()) {
      out.has_size_constant = true;
      out.size_constant = ParseSizeConstant(s.at("struct_size_macro").get<std::string>());
      out.size_constant.end_member = s.at("struct_size_end_field").get<std::string>();
      out.size_constant.value = s.at("struct_size_value").get<long long>();
    }
    tables.structs.push_back(std::move(out));
  }
}

// Adds the values of one enum; the same enum may appear in both files, and they must agree.
void AddEnum(const std::string& enum_type, const Json& values, Tables& tables) {
  bool known_type = false;
  for (const auto& t : tables.enum_types) known_type |= (t == enum_type);
  if (!known_type) tables.enum_types.push_back(enum_type);
  for (const auto& [name, value] : values.items()) {
    const long long v = value.get<long long>();
    bool duplicate = false;
    for (const auto& existing : tables.enum_values) {
      if (existing.name != name) continue;
      if (existing.value != v) {
        throw std::runtime_error("golden tables disagree about " + name);
      }
      duplicate = true;
    }
    if (!duplicate) tables.enum_values.push_back(EnumValue{enum_type, name, v});
  }
}

void AddConstants(const Json& values, Tables& tables) {
  for (const auto& [name, value] : values.items()) {
    const long long v = value.get<long long>();
    bool duplicate = false;
    for (const auto& existing : tables.constants) {
      if (existing.name != name) continue;
      if (existing.value != v) throw std::runtime_error("golden tables disagree about " + name);
      duplicate = true;
    }
    if (!duplicate) tables.constants.push_back(Constant{name, v});
  }
}

Tables Load(const std::string& layout_path, const std::string& enums_path) {
  const Json layout = ReadJson(layout_path);
  const Json enums = ReadJson(enums_path);
  Tables tables;
  for (const auto& [header, entry] : layout.at("headers").items()) {
    AddStructs(entry.at("structs"), header, tables);
  }
  AddStructs(layout.at("other_c_api_structs").at("structs"), "other_c_api_structs", tables);

  for (const char* name : {"TF_DataType", "TF_Code", "SE_EventStatus", "TF_TriState"}) {
    AddEnum(name, enums.at(name), tables);
  }
  AddEnum("TF_DataType", enums.at("TF_DataType_aliases"), tables);
  for (const auto& [name, values] : layout.at("enums").items()) AddEnum(name, values, tables);

  AddConstants(enums.at("api_versions"), tables);
  AddConstants(layout.at("constants"), tables);

  tables.bool_type = enums.at("TF_Bool").get<std::string>();
  if (layout.at("TF_Bool").get<std::string>().rfind(tables.bool_type, 0) != 0) {
    throw std::runtime_error("golden tables disagree about TF_Bool");
  }
  return tables;
}

enum class Language { kC, kCxx };

// Everything that differs between the two outputs.
struct Dialect {
  Language language;
  const char* static_assert_kw;
  const char* alignof_kw;

  std::string MemberSize(const Struct& s, const Member& m) const {
    return language == Language::kC ? "sizeof(((" + s.name + "*)0)->" + m.name + ")"
                                    : "sizeof(" + s.name + "::" + m.name + ")";
  }
  // An expression that is 1 when the member has exactly the golden type.
  std::string MemberTypeMatches(const Struct& s, const Member& m) const {
    if (language == Language::kC) {
      return "_Generic(((" + s.name + "*)0)->" + m.name + ", " + m.c_type + ": 1, default: 0)";
    }
    return "(std::is_same_v<decltype(" + s.name + "::" + m.name + "), " + m.c_type + "> ? 1 : 0)";
  }
  std::string BoolTypeMatches(const std::string& type) const {
    if (language == Language::kC) return "_Generic((TF_Bool)0, " + type + ": 1, default: 0)";
    return "(std::is_same_v<TF_Bool, " + type + "> ? 1 : 0)";
  }
};

std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// One verified fact: an expression, its expected value, a readable label and a category.
struct Check {
  std::string category;
  std::string label;
  std::string expression;
  long long expected;
  bool compile_time;        // false for values C cannot use in a constant expression
  std::string requirement;  // diagnostic text; defaults to "<label> must be <expected>"
};

std::vector<Check> BuildChecks(const Tables& tables, const Dialect& d) {
  std::vector<Check> checks;
  for (const Struct& s : tables.structs) {
    checks.push_back({"struct", s.name + ": sizeof", "sizeof(" + s.name + ")", s.size, true, ""});
    checks.push_back({"struct", s.name + ": alignof",
                      std::string(d.alignof_kw) + "(" + s.name + ")", s.align, true, ""});
    for (const Member& m : s.members) {
      const std::string where = s.name + "." + m.name;
      checks.push_back({"member", where + ": offset", "offsetof(" + s.name + ", " + m.name + ")",
                        m.offset, true, ""});
      checks.push_back({"member", where + ": size", d.MemberSize(s, m), m.size, true, ""});
      checks.push_back({"member", where + ": type", d.MemberTypeMatches(s, m), 1, true,
                        where + " must have type " + m.c_type});
    }
    if (s.has_size_constant) {
      const StructSizeConstant& c = s.size_constant;
      // The constant itself. In C a `static const size_t` object is not a constant expression,
      // so that one is only checked at run time there (and via TF_OFFSET_OF_END below).
      const bool constexpr_usable = c.is_macro || d.language == Language::kCxx;
      checks.push_back(
          {"struct_size", s.name + ": " + c.name, c.name, c.value, constexpr_usable, ""});
      checks.push_back(
          {"struct_size", s.name + ": TF_OFFSET_OF_END(" + s.name + ", " + c.end_member + ")",
           "TF_OFFSET_OF_END(" + s.name + ", " + c.end_member + ")", c.value, true, ""});
    }
  }
  for (const std::string& type : tables.enum_types) {
    checks.push_back({"enum", type + ": sizeof", "sizeof(" + type + ")", 4, true, ""});
  }
  for (const EnumValue& e : tables.enum_values) {
    checks.push_back({"enum", e.enum_type + "::" + e.name, e.name, e.value, true, ""});
  }
  for (const Constant& c : tables.constants) {
    checks.push_back({"constant", c.name, c.name, c.value, true, ""});
  }
  checks.push_back({"constant", "TF_Bool: type", d.BoolTypeMatches(tables.bool_type), 1, true,
                    "TF_Bool must be " + tables.bool_type});
  checks.push_back({"constant", "sizeof(TF_Bool)", "sizeof(TF_Bool)", 1, true, ""});
  return checks;
}

const char* const kHeaders[] = {
    "tensorflow/c/c_api_macros.h",
    "tensorflow/c/c_api.h",
    "tensorflow/c/tf_buffer.h",
    "tensorflow/c/tf_datatype.h",
    "tensorflow/c/tf_status.h",
    "tensorflow/c/tf_tensor.h",
    "tensorflow/c/kernels.h",
    "tensorflow/c/experimental/stream_executor/stream_executor.h",
    "tensorflow/c/experimental/grappler/grappler.h",
    "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h",
};

const char* const kCategories[] = {"struct", "member", "struct_size", "enum", "constant"};

std::string Generate(const Tables& tables, const Dialect& d) {
  const bool is_c = d.language == Language::kC;
  const std::vector<Check> checks = BuildChecks(tables, d);
  std::ostringstream out;
  out << "/* Generated by abi_layout_test_gen from tf_layout.json and tf_enums.json. Do not edit. "
         "*/\n";
  if (is_c) {
    out << "#include <stddef.h>\n#include <stdio.h>\n";
  } else {
    out << "#include <cstddef>\n#include <cstdio>\n#include <type_traits>\n#include <utility>\n";
  }
  for (const char* header : kHeaders) out << "#include \"" << header << "\"\n";
  out << "\n/* ---- Compile-time checks ---- */\n";
  for (const Check& c : checks) {
    if (!c.compile_time) continue;
    const std::string requirement =
        c.requirement.empty() ? c.label + " must be " + std::to_string(c.expected) : c.requirement;
    out << d.static_assert_kw << "((" << c.expression << ") == " << c.expected << ", "
        << Quote("ABI mismatch: " + requirement) << ");\n";
  }
  for (const Struct& s : tables.structs) {
    if (s.has_size_constant && s.size_constant.is_macro) {
      out << "#ifndef " << s.size_constant.name << "\n#error "
          << Quote(s.size_constant.name + " must be a macro") << "\n#endif\n";
    }
  }

  if (!is_c) {
    // Member counts: a struct with N members accepts N initialisers but not N + 1.
    out << R"(
#if __cplusplus >= 202002L
namespace {
struct AnyValue {
  template <class T>
  operator T() const;  // never defined; only used in unevaluated contexts
};
template <class T, std::size_t... I>
constexpr bool BraceInitialisable(std::index_sequence<I...>) {
  return requires { T{(static_cast<void>(I), AnyValue{})...}; };
}
template <class T, std::size_t N>
constexpr bool HasExactlyMembers() {
  return BraceInitialisable<T>(std::make_index_sequence<N>()) &&
         !BraceInitialisable<T>(std::make_index_sequence<N + 1>());
}
}  // namespace
)";
    for (const Struct& s : tables.structs) {
      out << "static_assert(HasExactlyMembers<" << s.name << ", " << s.members.size() << ">(), "
          << Quote("ABI mismatch: " + s.name + " must have exactly " +
                   std::to_string(s.members.size()) + " members")
          << ");\n";
    }
    out << "#define ABI_MEMBER_COUNTS_CHECKED " << tables.structs.size() << "\n#else\n"
        << "#define ABI_MEMBER_COUNTS_CHECKED 0\n#endif\n";
  }

  out << "\n/* ---- Run-time checks ---- */\n";
  out << "static int g_checked[5];\nstatic int g_failed;\n\n";
  out << "static void Check(int category, const char* label, unsigned long long actual,\n"
         "                  unsigned long long expected) {\n"
         "  ++g_checked[category];\n"
         "  if (actual != expected) {\n"
         "    ++g_failed;\n"
         "    fprintf(stderr, \"ABI MISMATCH %s: got %llu, expected %llu\\n\", label, actual,\n"
         "            expected);\n"
         "  }\n"
         "}\n\n";
  out << "int main(void) {\n";
  for (const Check& c : checks) {
    int category = 0;
    for (int i = 0; i < 5; ++i) {
      if (c.category == kCategories[i]) category = i;
    }
    const std::string label = c.requirement.empty() ? c.label : c.requirement;
    out << "  Check(" << category << ", " << Quote(label) << ", (unsigned long long)("
        << c.expression << "), " << c.expected << "ULL);\n";
  }
  const char* language = is_c ? "C11" : "C++";
  out << "  printf(\"ABI layout check (" << language
      << "%s): %d struct sizes/alignments, %d member "
      << "offsets/sizes/types, %d struct-size constants, %d enum entries, %d constants verified; "
      << "%d mismatches\\n\",\n";
  if (is_c) {
    out << "         \"\",\n";
  } else {
    out << "         __cplusplus >= 202002L ? \"20\" : \"17\",\n";
  }
  out << "         g_checked[0], g_checked[1], g_checked[2], g_checked[3], g_checked[4], "
         "g_failed);\n";
  out << "  printf(\"  " << tables.structs.size() << " structs, " <<
      [&] {
        std::size_t members = 0;
        for (const Struct& s : tables.structs) members += s.members.size();
        return members;
      }()
      << " members, " << tables.enum_values.size() << " enum values, " << checks.size()
      << " checks in total\\n\");\n";
  if (!is_c) {
    out << "  printf(\"  member counts of %d structs verified at compile time\\n\", "
           "ABI_MEMBER_COUNTS_CHECKED);\n";
  }
  out << "  return g_failed == 0 ? 0 : 1;\n}\n";
  return out.str();
}

void Write(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out || !(out << content)) throw std::runtime_error("cannot write " + path);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: " << argv[0] << " <tf_layout.json> <tf_enums.json> <out.c> <out.cc>\n";
    return 2;
  }
  try {
    const Tables tables = Load(argv[1], argv[2]);
    Write(argv[3], Generate(tables, Dialect{Language::kC, "_Static_assert", "_Alignof"}));
    Write(argv[4], Generate(tables, Dialect{Language::kCxx, "static_assert", "alignof"}));
  } catch (const std::exception& e) {
    std::cerr << "abi_layout_test_gen: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
