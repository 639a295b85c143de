/**
 * onnxruntime 1.29 and later send usage telemetry to Microsoft from Linux and macOS too (a
 * process event, then session, model and error events, and a device id written to disk), and its
 * uploader leaves an empty /tmp/mat-debug-<pid>.log behind every process that creates a session.
 * A guardrail promises to run offline and is often deployed where an unexpected outbound
 * connection is itself an alert, so it opts out unless the user has decided otherwise:
 * `ORT_DISABLE_TELEMETRY` is read when the runtime's environment is created (the first session),
 * and whatever value the user set is kept.
 *
 * Imported for its effect by every module that loads onnxruntime, before it does. Setting
 * `process.env` changes the process's real environment from the main thread, which loads these
 * modules before it starts any worker; a worker's own `process.env` is a copy.
 */
process.env.ORT_DISABLE_TELEMETRY ??= "1";
