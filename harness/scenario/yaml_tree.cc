#include "scenario/yaml_tree.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <sstream>

namespace conformance::scenario {
namespace {

// Thrown out of the event handler to stop yaml-cpp's parser at the first refused construct.
struct Refused {
  Location at;
  std::string message;
};

Location LocationOf(const YAML::Mark& mark) {
  if (mark.is_null()) return {};
  return {mark.line + 1, mark.column + 1};
}

const std::string& EmptyText() {
  static const std::string empty;
  return empty;
}

}  // namespace

// Turns parser events into YamlTree entries. Children of an open collection are gathered on
// a stack and copied to the tree's child array when it closes, so each collection's children
// are contiguous.
class TreeBuilder : public YAML::EventHandler {
 public:
  explicit TreeBuilder(YamlTree& tree) : tree_(tree) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    RefuseAnchor(mark, anchor);
    Add(YamlTree::Type::kNull, mark, {});
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    throw Refused{
        LocationOf(mark),
        "YAML aliases (*name) are not allowed in scenario files: an alias repeats a part of the "
        "file without bound before any size limit can be checked; use 'repeat' instead"};
  }

  void OnAnchor(const YAML::Mark& mark, const std::string& name) override {
    throw Refused{LocationOf(mark),
                  "YAML anchors (&" + name +
                      ") are not allowed in scenario files (aliases to them are refused); "
                      "use 'repeat' to run steps more than once"};
  }

  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                const std::string& value) override {
    RefuseAnchor(mark, anchor);
    Add(YamlTree::Type::kScalar, mark, value);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Open(YamlTree::Type::kSequence, mark, anchor);
  }
  void OnSequenceEnd() override { Close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Open(YamlTree::Type::kMap, mark, anchor);
  }
  void OnMapEnd() override { Close(); }

 private:
  void RefuseAnchor(const YAML::Mark& mark, YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor) OnAnchor(mark, "...");
  }

  uint32_t Add(YamlTree::Type type, const YAML::Mark& mark, const std::string& scalar) {
    const auto index = static_cast<uint32_t>(tree_.nodes_.size());
    YamlTree::Entry entry;
    entry.type = type;
    const Location at = LocationOf(mark);
    entry.line = static_cast<uint32_t>(at.line);
    entry.column = static_cast<uint32_t>(at.column);
    entry.scalar = scalar;
    tree_.nodes_.push_back(std::move(entry));
    if (!open_.empty()) open_.back().children.push_back(index);
    return index;
  }

  void Open(YamlTree::Type type, const YAML::Mark& mark, YAML::anchor_t anchor) {
    RefuseAnchor(mark, anchor);
    if (open_.size() >= static_cast<std::size_t>(kMaxYamlDepth)) {
      throw Refused{LocationOf(mark),
                    "nested more than " + std::to_string(kMaxYamlDepth) +
                        " levels deep (mappings and lists); scenario files never need that "
                        "many, flatten the nested repeat/concurrent blocks"};
    }
    const uint32_t index = Add(type, mark, {});
    open_.push_back({index, {}});
  }

  void Close() {
    OpenCollection done = std::move(open_.back());
    open_.pop_back();
    YamlTree::Entry& entry = tree_.nodes_[done.index];
    entry.first_child = static_cast<uint32_t>(tree_.children_.size());
    entry.child_count = static_cast<uint32_t>(done.children.size());
    tree_.children_.insert(tree_.children_.end(), done.children.begin(), done.children.end());
  }

  struct OpenCollection {
    uint32_t index;
    std::vector<uint32_t> children;
  };
  YamlTree& tree_;
  std::vector<OpenCollection> open_;
};

// Sees whether another document follows, without keeping it.
class DocumentProbe : public YAML::EventHandler {
 public:
  std::optional<Location> start;
  void OnDocumentStart(const YAML::Mark& mark) override {
    start = LocationOf(mark);
    throw Refused{*start, ""};
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

YamlTree YamlTree::Parse(std::string_view text, std::optional<YamlProblem>* problem) {
  YamlTree tree;
  std::istringstream in{std::string(text)};
  try {
    YAML::Parser parser(in);
    TreeBuilder builder(tree);
    parser.HandleNextDocument(builder);
    DocumentProbe probe;
    try {
      parser.HandleNextDocument(probe);
    } catch (const Refused&) {
      *problem = YamlProblem{
          *probe.start,
          "a second YAML document ('---'); a scenario file holds one document with 'scenarios:'"};
      return {};
    }
  } catch (const Refused& refused) {
    *problem = YamlProblem{refused.at, refused.message};
    return {};
  } catch (const YAML::Exception& error) {
    *problem = YamlProblem{LocationOf(error.mark), "invalid YAML: " + error.msg};
    return {};
  }
  return tree;
}

YamlNode YamlTree::Root() const {
  if (nodes_.empty()) return YamlNode(nullptr, 0);
  return YamlNode(this, 0);
}

bool YamlNode::IsMap() const { return tree_ && tree_->nodes_[index_].type == YamlTree::Type::kMap; }
bool YamlNode::IsSequence() const {
  return tree_ && tree_->nodes_[index_].type == YamlTree::Type::kSequence;
}
bool YamlNode::IsScalar() const {
  return tree_ && tree_->nodes_[index_].type == YamlTree::Type::kScalar;
}
bool YamlNode::IsNull() const {
  return tree_ && tree_->nodes_[index_].type == YamlTree::Type::kNull;
}

const std::string& YamlNode::Scalar() const {
  return IsScalar() ? tree_->nodes_[index_].scalar : EmptyText();
}

std::size_t YamlNode::size() const {
  if (IsMap()) return tree_->nodes_[index_].child_count / 2;
  if (IsSequence()) return tree_->nodes_[index_].child_count;
  return 0;
}

Location YamlNode::At() const {
  if (!tree_) return {};
  const YamlTree::Entry& entry = tree_->nodes_[index_];
  return {static_cast<int>(entry.line), static_cast<int>(entry.column)};
}

YamlNode YamlNode::Child(std::size_t i) const {
  const YamlTree::Entry& entry = tree_->nodes_[index_];
  return YamlNode(tree_, tree_->children_[entry.first_child + i]);
}

YamlNode YamlNode::operator[](std::string_view key) const {
  const std::size_t entries = IsMap() ? size() : 0;
  for (std::size_t i = 0; i < entries; ++i) {
    const YamlNode candidate = Key(i);
    if (candidate.IsScalar() && candidate.Scalar() == key) return Value(i);
  }
  return {};
}

YamlNode YamlNode::Item(std::size_t i) const { return Child(i); }
YamlNode YamlNode::Key(std::size_t i) const { return Child(2 * i); }
YamlNode YamlNode::Value(std::size_t i) const { return Child(2 * i + 1); }

std::vector<YamlNode> YamlNode::Items() const {
  std::vector<YamlNode> items;
  if (!IsSequence()) return items;
  items.reserve(size());
  for (std::size_t i = 0; i < size(); ++i) items.push_back(Item(i));
  return items;
}

std::vector<std::pair<YamlNode, YamlNode>> YamlNode::Entries() const {
  std::vector<std::pair<YamlNode, YamlNode>> entries;
  if (!IsMap()) return entries;
  entries.reserve(size());
  for (std::size_t i = 0; i < size(); ++i) entries.emplace_back(Key(i), Value(i));
  return entries;
}

}  // namespace conformance::scenario
