// core -> the grants people give clients at the identity provider, as a resource server checks them: a
// token is honoured only while the grant it names is on record, the person's for that client.

/** A grant a token names: what a person let a client do. */
export interface GrantClaim {
  grantId: string;
  personId: string;
  clientId: string;
}

/** The identity provider's record of the grants people gave clients and have not revoked. */
export interface LiveGrants {
  /** Whether the grant is on record, unexpired, and is this person's for this client. */
  isLive(grant: GrantClaim): Promise<boolean>;
}
