#include "fake_units.h"

#include "../support/collecting_sink.h"

namespace conformance::testing {
namespace {

using test_support::CollectingSink;

}  // namespace

TestUnit FakeUnit(std::string name, std::string tier, const std::vector<std::string>& ids,
                  Outcome outcome) {
  TestUnit unit;
  unit.name = std::move(name);
  unit.tier = std::move(tier);
  unit.check_ids = ids;
  unit.run = [ids, outcome](UnitContext& context) {
    for (const std::string& id : ids) {
      CheckResult result;
      result.id = id;
      result.outcome = outcome;
      if (outcome != Outcome::kPass) result.message = "fake " + id;
      context.sink.Emit(result);
    }
  };
  return unit;
}

UnitsRunner ReverseOrderRunner::AsRunner() {
  return [this](const std::vector<TestUnit>& units, const RunSettings& settings,
                const IsolationOptions&, int jobs, const UnitDone& on_done) {
    settings_seen = settings;
    jobs_seen = jobs;
    std::vector<std::vector<CheckResult>> results(units.size());
    for (std::size_t i = 0; i < units.size(); ++i) {
      ran.push_back(units[i].name);
      CollectingSink sink;
      UnitContext context{settings, sink};
      units[i].run(context);
      results[i] = std::move(sink.results);
    }
    for (std::size_t i = units.size(); i-- > 0;) on_done(i, std::move(results[i]));
  };
}

}  // namespace conformance::testing
