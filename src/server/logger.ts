/** The slice of pino that services use, so they log without depending on Fastify. */
export type Logger = {
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
};
