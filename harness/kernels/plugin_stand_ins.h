#pragma once
// Ops a plugin defines itself (TF_RegisterOpDefinition) that compute what a TensorFlow op
// computes: ITEX's _ITEXConv2D is Conv2D under another name, with an attr of its own
// (is_filter_const) whose default is the plain op. TensorFlow's record has no case of the
// plugin's op, but the TensorFlow op's record judges it: the TensorFlow op's generated cases,
// run on the plugin's kernel of its own op, held to the TensorFlow op's recorded results at that
// record's tolerance (the case's "borrowed_from" names the TensorFlow case, borrowed_cells.h's
// RecordedAs and ResultFor read it).
//
// Only where the plugin's definition, as it registers it, makes that certain (checked on every
// run, not assumed from the table): the same inputs and outputs in the same order, names and
// types; every attr of the TensorFlow op with its type and its default; every attr of its own
// one the table names, at the default the table gives (what makes it the plain op). The
// TensorFlow op's attrs the table says the plugin lacks (MatMul's grad_a, a gradient hint) are
// only taken at their default: cases setting them otherwise are left out. Two differences the
// table may name, each harmless to what a kernel computes: inputs the plugin spells otherwise
// (ITEX's _ITEXAvgPool reads `input` where AvgPool reads `value`: a kernel takes its inputs by
// position, and positions and types must still agree), and attrs every case sets explicitly, so
// the plugin's default for them is never used (ITEX's _ITEXConv3DBackpropInputV2 defaults
// dilations to 4 ones where the TensorFlow op's 5-D default has 5; TensorFlow's graph rewrite
// copies a node's attrs explicitly too).
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/generated_cases.h"
#include "kernels/plugin_ops.h"
#include "model/declared_precision.h"
#include "ops/registry.h"

namespace conformance::kernels {

struct PluginStandIn {
  std::string_view plugin_op;
  std::string_view tensorflow_op;
  // The plugin op's attrs TensorFlow's lacks, each with the default (its spec text) that makes
  // it the plain op.
  std::vector<std::pair<std::string_view, std::string_view>> plain_defaults = {};
  // The TensorFlow op's attrs the plugin op lacks: taken only at their default.
  std::vector<std::string_view> absent = {};
  // Inputs the plugin names otherwise: {plugin's name, TensorFlow's name}.
  std::vector<std::pair<std::string_view, std::string_view>> renamed_inputs = {};
  // Attrs every case sets, whatever the plugin's default: a shared one at the case's value (else
  // TensorFlow's default), one of plain_defaults at the table's value.
  std::vector<std::string_view> explicit_attrs = {};
};

// The table's entry for a plugin-defined op, or nullptr.
const PluginStandIn* FindPluginStandIn(std::string_view plugin_op);

// Why `plugin` (the plugin's own definition) does not compute what `tensorflow` does as `entry`
// says; empty when it does.
std::string StandInMismatch(const ops::OpDef& plugin, const ops::OpDef& tensorflow,
                            const PluginStandIn& entry);

// For each registered kernel of a plugin-defined op in the table (one the registry lacks): the
// TensorFlow op's generated cases as the plugin op's, added to `generated` (cases of id
// kernel.<plugin op>.<dtype>.generated), or a not-generated reason where the definition differs.
// Reads the plugin's definitions (`plugin_ops` lists them on first use) only when such a kernel
// is registered.
void AddStandInCells(nlohmann::json& generated, const std::vector<RegisteredKernel>& registered,
                     const ops::OpRegistry& registry,
                     const std::vector<DeclaredPrecision>& precision, PluginOps& plugin_ops);

}  // namespace conformance::kernels
