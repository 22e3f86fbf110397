#pragma once
// A scenario file's YAML as a compact, read-only tree, built from yaml-cpp's event stream
// rather than with YAML::Load. Two reasons:
//  - bounds before expansion: anchors and aliases are refused where they appear (an alias can
//    make a 2 KB file stand for billions of steps), and nesting deeper than kMaxYamlDepth is
//    refused at the node that goes too deep, with its line and column;
//  - memory: one flat array of nodes (about 56 bytes each) instead of yaml-cpp's node graph,
//    which costs an order of magnitude more per node.
// Positions are 1-based, as editors count.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/scenario.h"

namespace conformance::scenario {

// Mappings and lists nested deeper than this are refused. The deepest legal scenario needs
// about 3 levels per nested repeat/concurrent plus 6 for the file, so 64 leaves room for
// ~19 nested blocks while keeping every recursive walk over the tree shallow.
inline constexpr int kMaxYamlDepth = 64;

class YamlTree;

// A view of one node (or of nothing, when a key is missing). Cheap to copy.
class YamlNode {
 public:
  YamlNode() = default;

  bool IsDefined() const { return tree_ != nullptr; }
  explicit operator bool() const { return IsDefined(); }
  bool IsMap() const;
  bool IsSequence() const;
  bool IsScalar() const;
  bool IsNull() const;
  // The scalar's text; empty for anything else.
  const std::string& Scalar() const;
  // Entries of a mapping or items of a list; 0 for anything else.
  std::size_t size() const;
  Location At() const;

  // A mapping's value for `key` (its first occurrence); undefined when absent or not a map.
  YamlNode operator[](std::string_view key) const;
  // The i-th item of a list.
  YamlNode Item(std::size_t i) const;
  // The i-th key and value of a mapping.
  YamlNode Key(std::size_t i) const;
  YamlNode Value(std::size_t i) const;

  std::vector<YamlNode> Items() const;
  std::vector<std::pair<YamlNode, YamlNode>> Entries() const;

 private:
  friend class YamlTree;
  YamlNode(const YamlTree* tree, uint32_t index) : tree_(tree), index_(index) {}
  YamlNode Child(std::size_t i) const;

  const YamlTree* tree_ = nullptr;
  uint32_t index_ = 0;
};

struct YamlProblem {
  Location at;
  std::string message;
};

class YamlTree {
 public:
  // Parses the first document of `text`. On a syntax error, an alias, an anchor, a second
  // document or nesting beyond kMaxYamlDepth, returns the problem instead.
  static YamlTree Parse(std::string_view text, std::optional<YamlProblem>* problem);

  // The document's root; a null node for an empty file.
  YamlNode Root() const;
  std::size_t node_count() const { return nodes_.size(); }

 private:
  friend class YamlNode;
  friend class TreeBuilder;
  enum class Type : uint8_t { kNull, kScalar, kSequence, kMap };
  struct Entry {
    Type type = Type::kNull;
    uint32_t line = 0, column = 0;
    uint32_t first_child = 0, child_count = 0;  // into children_; maps: key, value, key, ...
    std::string scalar;
  };
  std::vector<Entry> nodes_;
  std::vector<uint32_t> children_;
};

}  // namespace conformance::scenario
