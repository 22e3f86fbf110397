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

}  // namespace
}  // namespace tensorflow_agreement
