/** Phone numbers in E.164 form (+, country code, 8 to 15 digits in all): what SMS gateways accept. */
export function isE164PhoneNumber(value: string): boolean {
  return /^\+[1-9][0-9]{7,14}$/.test(value);
}
