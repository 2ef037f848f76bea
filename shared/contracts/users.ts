/** The two user kinds of the spec (section 3), numeric on the wire and in the database. */
export enum UserType {
  Personal = 1,
  Company = 2,
}

export const USER_TYPES = [UserType.Personal, UserType.Company] as const;
