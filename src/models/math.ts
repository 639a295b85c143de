/** The logistic function, shared by every trained model and its trainer so scores match bit for bit. */
export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));
