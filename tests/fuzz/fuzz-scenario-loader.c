/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-scenario-loader.c — wn_load_scenario_data() and wn_load_response_data()
 * on arbitrary bytes; a scenario that loads is run against a fixed process
 * whose parallel branches serve every topic of the bundled examples. */
#include "fuzz-target.h"
#include "fuzz-sim.h"

static const char process_json[] =
  "{ \"format\": \"winnow.process/1\", \"id\": \"fuzz-world\","
  "  \"variables\": { \"order\": { \"id\": \"A-1\", \"amount\": 50, \"total\": 50 } },"
  "  \"nodes\": ["
  "    { \"id\": \"start\", \"type\": \"startEvent\" },"
  "    { \"id\": \"fork\", \"type\": \"parallelGateway\" },"
  "    { \"id\": \"reserve\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"reserve\","
  "        \"outputMapping\": [ { \"path\": \"body.reservationId\", \"var\": \"reservationId\" } ] } },"
  "    { \"id\": \"reserve-failed\", \"type\": \"boundaryEvent\", \"attachedTo\": \"reserve\", \"error\": \"OutOfStock\" },"
  "    { \"id\": \"authorize\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"authorize\","
  "        \"status\": { \"var\": \"paymentStatus\", \"overwrite\": true } } },"
  "    { \"id\": \"gateway-down\", \"type\": \"boundaryEvent\", \"attachedTo\": \"authorize\", \"error\": \"PaymentGatewayDown\" },"
  "    { \"id\": \"quote\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"quote.get\", \"trust\": \"engineAuthoritative\","
  "        \"errorMapper\": [ { \"code\": \"404\", \"bpmnError\": { \"code\": \"NotFound\" } } ] } },"
  "    { \"id\": \"not-found\", \"type\": \"boundaryEvent\", \"attachedTo\": \"quote\", \"error\": \"NotFound\" },"
  "    { \"id\": \"label\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"label.print\", \"input\": [ \"order.id\" ] } },"
  "    { \"id\": \"charge\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"payment.charge\","
  "        \"retry\": { \"policy\": \"fixed\", \"maxAttempts\": 3, \"delay\": \"100ms\" } } },"
  "    { \"id\": \"invoice\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"invoice.send\", \"retry\": { \"policy\": \"none\" } } },"
  "    { \"id\": \"book\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"shipping.book\" } },"
  "    { \"id\": \"pack\", \"type\": \"serviceTask\", \"worker\": { \"topic\": \"warehouse.pack\" } },"
  "    { \"id\": \"join\", \"type\": \"parallelGateway\" },"
  "    { \"id\": \"check\", \"type\": \"exclusiveGateway\", \"default\": \"to-held\" },"
  "    { \"id\": \"shipped\", \"type\": \"endEvent\" },"
  "    { \"id\": \"held\", \"type\": \"endEvent\" }"
  "  ],"
  "  \"flows\": ["
  "    { \"id\": \"f0\", \"from\": \"start\", \"to\": \"fork\" },"
  "    { \"id\": \"f1\", \"from\": \"fork\", \"to\": \"reserve\" },"
  "    { \"id\": \"f2\", \"from\": \"fork\", \"to\": \"authorize\" },"
  "    { \"id\": \"f3\", \"from\": \"fork\", \"to\": \"quote\" },"
  "    { \"id\": \"f4\", \"from\": \"fork\", \"to\": \"label\" },"
  "    { \"id\": \"f5\", \"from\": \"fork\", \"to\": \"charge\" },"
  "    { \"id\": \"f6\", \"from\": \"fork\", \"to\": \"invoice\" },"
  "    { \"id\": \"f7\", \"from\": \"fork\", \"to\": \"book\" },"
  "    { \"id\": \"f8\", \"from\": \"fork\", \"to\": \"pack\" },"
  "    { \"id\": \"g1\", \"from\": \"reserve\", \"to\": \"join\" },"
  "    { \"id\": \"g2\", \"from\": \"authorize\", \"to\": \"join\" },"
  "    { \"id\": \"g3\", \"from\": \"quote\", \"to\": \"join\" },"
  "    { \"id\": \"g4\", \"from\": \"label\", \"to\": \"join\" },"
  "    { \"id\": \"g5\", \"from\": \"charge\", \"to\": \"join\" },"
  "    { \"id\": \"g6\", \"from\": \"invoice\", \"to\": \"join\" },"
  "    { \"id\": \"g7\", \"from\": \"book\", \"to\": \"join\" },"
  "    { \"id\": \"g8\", \"from\": \"pack\", \"to\": \"join\" },"
  "    { \"id\": \"b1\", \"from\": \"reserve-failed\", \"to\": \"held\" },"
  "    { \"id\": \"b2\", \"from\": \"gateway-down\", \"to\": \"held\" },"
  "    { \"id\": \"b3\", \"from\": \"not-found\", \"to\": \"held\" },"
  "    { \"id\": \"j1\", \"from\": \"join\", \"to\": \"check\" },"
  "    { \"id\": \"to-ship\", \"from\": \"check\", \"to\": \"shipped\", \"condition\": \"order.amount <= 1000\" },"
  "    { \"id\": \"to-held\", \"from\": \"check\", \"to\": \"held\" }"
  "  ] }";

static WnProcess *process;

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_autoptr(GError) error = NULL;

  fuzz_init ();
  process = wn_load_process_data (process_json, -1, "fuzz-world.process.json", NULL, &error);
  if (process == NULL)
    g_error ("the fixed process does not load: %s", error->message);
  return 0;
}

static void
check_refusal (GPtrArray *diagnostics,
               GError    *error)
{
  if (error == NULL || diagnostics == NULL)
    g_error ("a refused document has no error or no diagnostics");
  for (guint i = 0; i < diagnostics->len; i++)
    g_free (wn_diagnostic_format (g_ptr_array_index (diagnostics, i)));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;

  {
    g_autoptr(GPtrArray) diagnostics = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(WnResponse) response = wn_load_response_data (text, (gssize) size, "fuzz.response.json",
                                                            &diagnostics, &error);
    if (response == NULL)
      check_refusal (diagnostics, error);
    else
      g_free (wn_response_describe (response));
  }
  {
    g_autoptr(GPtrArray) diagnostics = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(WnScenario) scenario = wn_load_scenario_data (text, (gssize) size, "fuzz.scenario.json",
                                                            &diagnostics, &error);
    if (scenario == NULL)
      {
        check_refusal (diagnostics, error);
        return 0;
      }
    fuzz_simulate (process, scenario);
  }
  return 0;
}
