// The comparison rules of tensorflow.agreement: equal kinds, codes and messages agree; ours
// saying "unknown here" contradicts no outcome of TensorFlow's, but is never agreement either.
#include "installed_tensorflow/verdicts.h"

#include <gtest/gtest.h>

namespace tensorflow_agreement {

using tensorflow_driver::Agree;
using tensorflow_driver::Contradicts;
using tensorflow_driver::FromConformance;
using tensorflow_driver::FromDriver;
using tensorflow_driver::Verdict;
namespace {

using nlohmann::json;

Verdict Ours(const json& verdict) { return FromConformance(json{{"tensorflow_verdict", verdict}}); }

Verdict TensorFlowLoaded() { return FromDriver(json{{"outcome", "loaded"}}); }

TEST(AgreementVerdicts, UnknownHereIsNoContradictionAndNoAgreement) {
  const Verdict ours = Ours({{"unknown", true}, {"summary", "unknown here: why"}});
  EXPECT_EQ(ours.kind, Verdict::Kind::kUndecided);
  EXPECT_EQ(ours.Describe(), "unknown here: why");
  EXPECT_FALSE(Agree(TensorFlowLoaded(), ours));
  EXPECT_FALSE(Contradicts(TensorFlowLoaded(), ours));
  const Verdict refused = FromDriver(
      json{{"outcome", "refused"}, {"load_status", {{"code", 5}, {"message", "p.so: x"}}}});
  EXPECT_FALSE(Contradicts(refused, ours));
}

TEST(AgreementVerdicts, AMissingReportOrDriverResultStillContradicts) {
  const Verdict ours = Ours({{"unknown", true}, {"summary", "unknown here: why"}});
  EXPECT_TRUE(Contradicts(FromDriver(json{{"outcome", "?"}}), ours));
  EXPECT_TRUE(Contradicts(TensorFlowLoaded(), FromConformance(json::object())));
}

TEST(AgreementVerdicts, RefusalsAgreeOnCodeAndMessageOnly) {
  const Verdict refused = FromDriver(
      json{{"outcome", "refused"}, {"load_status", {{"code", 5}, {"message", "p.so: x"}}}});
  EXPECT_TRUE(Agree(refused, Ours({{"loads", false}, {"code", 5}, {"message", "p.so: x"}})));
  EXPECT_TRUE(Contradicts(refused, Ours({{"loads", false}, {"code", 5}, {"message", "p.so: y"}})));
  EXPECT_TRUE(Contradicts(refused, Ours({{"loads", true}})));
}

TEST(AgreementVerdicts, APluginsOwnStatusAgreesWhenItCarriesTheCause) {
  const Verdict refused = FromDriver(
      json{{"outcome", "aborted"},
           {"fatal", {{"code", 5}, {"message", "wrapper: lib.so: undefined symbol: TF_X"}}}});
  const json ours = {
      {"loads", false}, {"plugin_status", true}, {"message", "lib.so: undefined symbol: TF_X"}};
  const auto changed = [&ours](const json& changes) {
    json copy = ours;
    copy.update(changes);
    return copy;
  };
  EXPECT_TRUE(Agree(refused, Ours(ours)));
  EXPECT_TRUE(Contradicts(refused, Ours(changed({{"message", "lib.so: other"}}))));
  EXPECT_TRUE(Contradicts(TensorFlowLoaded(), Ours(ours)));
  // Without plugin_status the code and text must match exactly.
  EXPECT_TRUE(Contradicts(refused, Ours(changed({{"plugin_status", false}}))));
}

// A plugin with C++ imports TensorFlow may or may not export, and one no release exports:
// dlopen names whichever it meets first unbound, so any of the listed texts agrees, with the
// same code (load_defects/foreign_cxx_import: 2.21.0 names vendor_runtime, 2.5.3 tsl).
TEST(AgreementVerdicts, AnyListedAlternativeMessageAgrees) {
  const json ours = {{"loads", false},
                     {"code", 5},
                     {"message", "p.so: undefined symbol: _ZN14vendor_runtime1fEv"},
                     {"message_alternatives", {"p.so: undefined symbol: _ZN3tsl1gEv"}}};
  const auto refused = [](int code, const std::string& message) {
    return FromDriver(
        json{{"outcome", "refused"}, {"load_status", {{"code", code}, {"message", message}}}});
  };
  EXPECT_TRUE(Agree(refused(5, "p.so: undefined symbol: _ZN14vendor_runtime1fEv"), Ours(ours)));
  EXPECT_TRUE(Agree(refused(5, "p.so: undefined symbol: _ZN3tsl1gEv"), Ours(ours)));
  EXPECT_TRUE(Contradicts(refused(5, "p.so: undefined symbol: _ZN3tsl1hEv"), Ours(ours)));
  EXPECT_TRUE(Contradicts(refused(9, "p.so: undefined symbol: _ZN3tsl1gEv"), Ours(ours)));
}

// TensorFlow 2.10.1 prints Mean's allowed types with a number where 7 of the 17 DT_ names
// belong (tensorflow.agreement, kernel_registration_defects/host_memory_on_missing_arg).
TEST(AgreementVerdicts, AnAllowedTypeListWithANumberAgreesByItsTypeNames) {
  const auto refused = [](const std::string& types) {
    return FromDriver(json{{"outcome", "refused"},
                           {"load_status",
                            {{"code", 3},
                             {"message", "arg 'axis': attr=T:type,allowed=[" + types +
                                             "]; attr=Tidx:type,allowed=[DT_INT32]>"}}}});
  };
  const auto ours = [](const std::string& types, int code = 3) {
    return Ours({{"loads", false},
                 {"code", code},
                 {"message", "arg 'axis': attr=T:type,allowed=[" + types +
                                 "]; attr=Tidx:type,allowed=[DT_INT32]>"}});
  };
  const std::string full = "DT_FLOAT, DT_INT16, DT_INT8, DT_INT64, DT_UINT16, DT_HALF";
  const Verdict tensorflow = refused("DT_FLOAT, DT_INT16, 6034766930529145842, DT_UINT16, DT_HALF");
  EXPECT_TRUE(Agree(tensorflow, ours(full)));
  EXPECT_TRUE(Agree(refused("DT_FLOAT, 1, DT_INT8, 2, DT_HALF"), ours(full)));
  // Every DT_ name still counts, in order, and the number stands for at least one of ours.
  EXPECT_TRUE(Contradicts(tensorflow, ours("DT_FLOAT, DT_INT16, DT_UINT16, DT_HALF")));
  EXPECT_TRUE(Contradicts(tensorflow, ours("DT_FLOAT, DT_INT8, DT_INT64, DT_UINT16, DT_HALF")));
  EXPECT_TRUE(Contradicts(tensorflow, ours("DT_INT16, DT_FLOAT, DT_INT8, DT_UINT16, DT_HALF")));
  EXPECT_TRUE(Contradicts(tensorflow, ours(full + ", DT_BOOL")));
  // The rest of the message and the code are compared as always.
  EXPECT_TRUE(Contradicts(tensorflow, ours(full, 9)));
  EXPECT_TRUE(
      Contradicts(tensorflow, Ours({{"loads", false},
                                    {"code", 3},
                                    {"message", "arg 'axes': attr=T:type,allowed=[" + full +
                                                    "]; attr=Tidx:type,allowed=[DT_INT32]>"}})));
  // A list without a number is compared character for character.
  EXPECT_TRUE(Contradicts(refused(full), ours("DT_FLOAT, DT_INT16, DT_INT8, DT_UINT16, DT_HALF")));
}

}  // namespace
}  // namespace tensorflow_agreement
