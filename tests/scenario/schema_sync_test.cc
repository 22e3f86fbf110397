// The JSON Schema (for editors) and the schema page (for people) describe exactly the step
// kinds and keys the parser accepts (harness/scenario/schema_keys.cc), so neither can drift.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "scenario/schema_keys.h"

namespace conformance::scenario {
namespace {

std::string ReadText(const char* path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::set<std::string> Keys(const nlohmann::json& object) {
  std::set<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.insert(key);
  return keys;
}

TEST(SchemaSync, JsonSchemaHasEveryStepWithItsKeys) {
  const auto schema = nlohmann::json::parse(ReadText(SCENARIO_SCHEMA_FILE));
  const auto& defs = schema.at("$defs");
  std::set<std::string> kinds;
  for (const StepSchema& step : StepSchemas()) {
    kinds.insert(step.name);
    if (step.kind == StepKind::kConcurrent) continue;
    ASSERT_TRUE(defs.contains(step.name)) << step.name;
    nlohmann::json def = defs.at(step.name);
    if (def.contains("anyOf"))
      def = def.at("anyOf").at(1);  // synchronize_all_activity: null or a mapping
    EXPECT_EQ(Keys(def.at("properties")), std::set<std::string>(step.keys.begin(), step.keys.end()))
        << step.name;
    const std::set<std::string> required(step.required.begin(), step.required.end());
    std::set<std::string> schema_required;
    if (def.contains("required")) schema_required = def.at("required").get<std::set<std::string>>();
    EXPECT_EQ(schema_required, required) << step.name;
  }
  EXPECT_EQ(Keys(defs.at("step").at("properties")), kinds);
  EXPECT_EQ(Keys(schema.at("properties")),
            std::set<std::string>(FileKeys().begin(), FileKeys().end()));
  EXPECT_EQ(Keys(defs.at("scenario").at("properties")),
            std::set<std::string>(ScenarioKeys().begin(), ScenarioKeys().end()));
}

TEST(SchemaSync, PageDocumentsEveryStepAndKey) {
  const std::string page = ReadText(SCENARIO_SCHEMA_PAGE);
  for (const StepSchema& step : StepSchemas()) {
    EXPECT_NE(page.find("`" + step.name + "`"), std::string::npos) << step.name;
    for (const std::string& key : step.keys) {
      EXPECT_NE(page.find("`" + key + "`"), std::string::npos) << step.name << "." << key;
    }
  }
}

}  // namespace
}  // namespace conformance::scenario
