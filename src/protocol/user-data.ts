/** A value allowed in `userData`: the object is flat, so no nested objects or arrays. */
export type UserDataValue = string | number | boolean | null;

/** What the merchant tells the assistant about the shopper (SPEC: personalization data). */
export type UserData = Record<string, UserDataValue>;
