// client -> the /v1 interface's types, generated from its OpenAPI document by `npm run client:types`
// (bin/client-types.ts, openapi-typescript). Do not edit: change the zod schemas and regenerate.

export interface paths {
    "/v1/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange an API key for a 15-minute access token */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients/onboardings/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Open a sign-up session (a reference used before reopens its onboarding) */
        post: operations["createOnboardingSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients/onboardings/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an onboarding */
        get: operations["getOnboarding"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a client */
        get: operations["getClient"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List clients, newest first */
        get: operations["listClients"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contract-reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List contract reviews, newest first */
        get: operations["listContractReviews"];
        put?: never;
        /** Send a contract */
        post: operations["createContractReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contract-reviews/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a contract review (its latest version); poll it every 30 seconds */
        get: operations["getContractReview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contract-reviews/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a new version of a contract, at the same link */
        post: operations["createContractReviewVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description A client id, `cli_…`. */
        ClientId: string;
        /** @description An onboarding id, `onb_…`. */
        OnboardingId: string;
        /** @description A contract review id, `crv_…`. */
        ContractReviewId: string;
        /** @description The caller's own id for a contract: 1 to 200 printable characters, unique. */
        ExternalReference: string;
        /** @description The caller's own id for a sign-up: 1 to 200 printable characters. */
        Reference: string;
        /** @enum {string} */
        Product: "legal_information" | "legal_advice" | "contract_viewer";
        /**
         * @description Only `lawyer` is available (others: 422 `review_not_available`).
         * @enum {string}
         */
        ReviewKind: "on_request" | "lawyer" | "ai";
        /** @description Up to 10 client ids of this environment, each once. */
        ClientIds: components["schemas"]["ClientId"][];
        /** @description The one person a `legal_advice` review is written for. */
        Recipient: {
            /** @description Given name. */
            first_name: string;
            /** @description Family name. */
            last_name: string;
            /** @description Email address. */
            email: string;
        };
        ContractRequest: {
            external_reference: components["schemas"]["ExternalReference"];
            product: components["schemas"]["Product"];
            /** @description `legal_information` only, and required there. */
            review?: components["schemas"]["ReviewKind"] | null;
            clients?: components["schemas"]["ClientIds"] | null;
            /** @description `legal_advice` only; required there unless `clients` names a client. */
            recipient?: components["schemas"]["Recipient"] | null;
        };
        VersionRequest: {
            /** @description The latest version the caller knows; a newer one exists: 409 `stale_version`. */
            based_on_version: number;
            /** @description Replaces the contract's clients; omitted or null keeps them; `[]` clears them. */
            clients?: components["schemas"]["ClientIds"] | null;
        };
        SessionRequest: {
            reference: components["schemas"]["Reference"];
        };
        /**
         * @description Page size, never clamped.
         * @default 20
         */
        Limit: number;
        Part: {
            /** @enum {string} */
            state: "pending" | "running" | "completed" | "failed";
            completed_at: string | null;
            failure_reason: ("timed_out" | "processing_error") | null;
            failed_at: string | null;
        };
        LawyerReview: {
            /** @enum {string} */
            state: "not_requested" | "requested" | "completed";
            requested_at: string | null;
            completed_at: string | null;
        };
        Publication: {
            /** @enum {string} */
            channel: "contract_viewer" | "review" | "review_snapshot";
            /** @enum {string} */
            state: "not_requested" | "pending" | "published" | "withdrawn" | "failed";
            /** @description Where it lives once published. */
            url: string | null;
            published_at: string | null;
        };
        ContractReview: {
            id: components["schemas"]["ContractReviewId"];
            external_reference: string;
            product: components["schemas"]["Product"];
            version: number;
            review: components["schemas"]["ReviewKind"] | null;
            processing: components["schemas"]["Part"];
            analysis: components["schemas"]["Part"] | null;
            lawyer_review: components["schemas"]["LawyerReview"] | null;
            publications: components["schemas"]["Publication"][];
            clients: components["schemas"]["ClientId"][];
            recipient: {
                first_name: string;
                last_name: string;
                email: string;
            } | null;
            /**
             * Format: date-time
             * @description When the contract was first sent.
             * @example 2026-11-21T09:30:00.123456Z
             */
            created_at: string;
        };
        Client: {
            id: components["schemas"]["ClientId"];
            onboarding_id: components["schemas"]["OnboardingId"];
            reference: string;
            primary: boolean;
            first_name: string;
            last_name: string;
            email: string;
            mobile: string | null;
            /**
             * Format: date-time
             * @description When first submitted.
             * @example 2026-11-21T09:30:00.123456Z
             */
            created_at: string;
        };
        Onboarding: {
            id: components["schemas"]["OnboardingId"];
            reference: string;
            /** @enum {string} */
            state: "open" | "submitted" | "accepted";
            clients: components["schemas"]["Client"][];
            /**
             * Format: date-time
             * @description When opened.
             * @example 2026-11-21T09:30:00.123456Z
             */
            created_at: string;
            submitted_at: string | null;
            accepted_at: string | null;
        };
        OnboardingSession: {
            id: components["schemas"]["OnboardingId"];
            reference: string;
            /** @enum {string} */
            state: "open" | "submitted" | "accepted";
            /** @description `onbs_…`: shows and submits this one form; safe in a browser. */
            session_token: string;
            /**
             * Format: date-time
             * @description When opened.
             * @example 2026-11-21T09:30:00.123456Z
             */
            created_at: string;
        };
        Token: {
            access_token: string;
            /** @constant */
            token_type: "Bearer";
            /** @description Seconds until expiry (900). */
            expires_in: number;
            /** @enum {string} */
            environment: "sandbox" | "production";
        };
        ClientList: {
            data: components["schemas"]["Client"][];
            has_more: boolean;
        };
        ContractReviewList: {
            data: components["schemas"]["ContractReview"][];
            has_more: boolean;
        };
        /**
         * @description Every code the /v1 API answers, with its status: `product_required` 400, `product_invalid` 400, `review_required` 400, `review_invalid` 400, `review_not_applicable` 400, `review_not_available` 422, `recipient_required` 400, `recipient_invalid` 400, `recipient_not_applicable` 400, `recipient_client_unusable` 422, `clients_invalid` 400, `client_unknown` 422, `request_invalid` 400, `file_rejected` 422, `external_reference_exists` 409, `stale_version` 409, `idempotency_key_reused` 422, `idempotency_key_required` 400, `content_digest_required` 400, `wrong_environment` 401, `budget_used` 403, `reference_required` 400, `reference_invalid` 400, `authentication_required` 401, `api_key_invalid` 401, `token_invalid` 401, `token_expired` 401, `idempotency_key_invalid` 400, `idempotency_key_in_use` 409, `content_digest_invalid` 400, `content_digest_mismatch` 400, `multipart_invalid` 400, `external_reference_required` 400, `external_reference_invalid` 400, `based_on_version_required` 400, `based_on_version_invalid` 400, `limit_invalid` 400, `starting_after_invalid` 400, `filter_invalid` 400, `parameter_unknown` 400, `not_found` 404, `method_not_allowed` 405, `payload_too_large` 413, `rate_limited` 429, `internal_error` 500, `service_unavailable` 503.
         * @enum {string}
         */
        ErrorCode: "product_required" | "product_invalid" | "review_required" | "review_invalid" | "review_not_applicable" | "review_not_available" | "recipient_required" | "recipient_invalid" | "recipient_not_applicable" | "recipient_client_unusable" | "clients_invalid" | "client_unknown" | "request_invalid" | "file_rejected" | "external_reference_exists" | "stale_version" | "idempotency_key_reused" | "idempotency_key_required" | "content_digest_required" | "wrong_environment" | "budget_used" | "reference_required" | "reference_invalid" | "authentication_required" | "api_key_invalid" | "token_invalid" | "token_expired" | "idempotency_key_invalid" | "idempotency_key_in_use" | "content_digest_invalid" | "content_digest_mismatch" | "multipart_invalid" | "external_reference_required" | "external_reference_invalid" | "based_on_version_required" | "based_on_version_invalid" | "limit_invalid" | "starting_after_invalid" | "filter_invalid" | "parameter_unknown" | "not_found" | "method_not_allowed" | "payload_too_large" | "rate_limited" | "internal_error" | "service_unavailable";
        Error: {
            error: {
                code: components["schemas"]["ErrorCode"];
                /** @description What to send instead. */
                message: string;
            };
        };
    };
    responses: never;
    parameters: {
        /** @description Chosen per request, such as a UUID; the same key with the same body answers the first response (`Idempotent-Replayed: true`), kept 24 hours. */
        "Idempotency-Key": string;
        /**
         * @description RFC 9530: `sha-256=:<base64>:`, the SHA-256 of the whole body exactly as sent.
         * @example sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:
         */
        "Content-Digest": string;
    };
    requestBodies: never;
    headers: {
        /** @description This request, `rqs_…`. */
        "Service-Request-Id": string;
        /** @description RFC 6750 `Bearer`. */
        "WWW-Authenticate": string;
        /** @description Seconds to wait. */
        "Retry-After": number;
        /** @description `true` on a replay of an earlier request with the same `Idempotency-Key`. */
        "Idempotent-Replayed": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The access token. */
            200: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            /** @description `authentication_required`, `wrong_environment`, `api_key_invalid` */
            401: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "authentication_required" | "wrong_environment" | "api_key_invalid";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "rate_limited";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "internal_error";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "service_unavailable";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createOnboardingSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SessionRequest"];
            };
        };
        responses: {
            /** @description The onboarding, with a new session token. */
            200: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OnboardingSession"];
                };
            };
            /** @description `request_invalid`, `reference_required`, `reference_invalid` */
            400: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "request_invalid" | "reference_required" | "reference_invalid";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `authentication_required`, `wrong_environment`, `token_invalid`, `token_expired` */
            401: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "authentication_required" | "wrong_environment" | "token_invalid" | "token_expired";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "rate_limited";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "internal_error";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "service_unavailable";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getOnboarding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The onboarding's id. A malformed or unknown id, or one of another integration or environment, is 404 `not_found`. */
                id: components["schemas"]["OnboardingId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The onboarding. */
            200: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Onboarding"];
                };
            };
            /** @description `authentication_required`, `wrong_environment`, `token_invalid`, `token_expired` */
            401: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "authentication_required" | "wrong_environment" | "token_invalid" | "token_expired";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "not_found";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "rate_limited";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "internal_error";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "service_unavailable";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client's id. A malformed or unknown id, or one of another integration or environment, is 404 `not_found`. */
                id: components["schemas"]["ClientId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The client. */
            200: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Client"];
                };
            };
            /** @description `authentication_required`, `wrong_environment`, `token_invalid`, `token_expired` */
            401: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "authentication_required" | "wrong_environment" | "token_invalid" | "token_expired";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "not_found";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "rate_limited";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "internal_error";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "service_unavailable";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listClients: {
        parameters: {
            query?: {
                limit?: components["schemas"]["Limit"];
                /** @description The last id of the previous page, for the next page. */
                starting_after?: components["schemas"]["ClientId"];
                onboarding_id?: components["schemas"]["OnboardingId"];
                reference?: components["schemas"]["Reference"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of clients. */
            200: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientList"];
                };
            };
            /** @description `limit_invalid`, `starting_after_invalid`, `filter_invalid`, `parameter_unknown` */
            400: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "limit_invalid" | "starting_after_invalid" | "filter_invalid" | "parameter_unknown";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `authentication_required`, `wrong_environment`, `token_invalid`, `token_expired` */
            401: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "authentication_required" | "wrong_environment" | "token_invalid" | "token_expired";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "rate_limited";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "internal_error";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "service_unavailable";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listContractReviews: {
        parameters: {
            query?: {
                limit?: components["schemas"]["Limit"];
                /** @description The last id of the previous page, for the next page. */
                starting_after?: components["schemas"]["ContractReviewId"];
                external_reference?: components["schemas"]["ExternalReference"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of contract reviews. */
            200: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContractReviewList"];
                };
            };
            /** @description `limit_invalid`, `starting_after_invalid`, `filter_invalid`, `parameter_unknown` */
            400: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "limit_invalid" | "starting_after_invalid" | "filter_invalid" | "parameter_unknown";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `authentication_required`, `wrong_environment`, `token_invalid`, `token_expired` */
            401: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "authentication_required" | "wrong_environment" | "token_invalid" | "token_expired";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "rate_limited";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "internal_error";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "service_unavailable";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createContractReview: {
        parameters: {
            query?: never;
            header: {
                /** @description Chosen per request, such as a UUID; the same key with the same body answers the first response (`Idempotent-Replayed: true`), kept 24 hours. */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /**
                 * @description RFC 9530: `sha-256=:<base64>:`, the SHA-256 of the whole body exactly as sent.
                 * @example sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:
                 */
                "Content-Digest": components["parameters"]["Content-Digest"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description Exactly two parts, in either order. `Content-Digest` is the SHA-256 of this whole body as sent: build the body (or hash the file) first, then send it. */
        requestBody: {
            content: {
                "multipart/form-data": {
                    request: components["schemas"]["ContractRequest"];
                    /** @description The contract PDF, up to 104857600 bytes. */
                    file: string;
                };
            };
        };
        responses: {
            /** @description Accepted: the contract is being read. */
            202: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContractReview"];
                };
            };
            /** @description `idempotency_key_required`, `idempotency_key_invalid`, `content_digest_required`, `content_digest_invalid`, `content_digest_mismatch`, `multipart_invalid`, `request_invalid`, `clients_invalid`, `external_reference_required`, `external_reference_invalid`, `product_required`, `product_invalid`, `review_required`, `review_invalid`, `review_not_applicable`, `recipient_required`, `recipient_invalid`, `recipient_not_applicable` */
            400: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "idempotency_key_required" | "idempotency_key_invalid" | "content_digest_required" | "content_digest_invalid" | "content_digest_mismatch" | "multipart_invalid" | "request_invalid" | "clients_invalid" | "external_reference_required" | "external_reference_invalid" | "product_required" | "product_invalid" | "review_required" | "review_invalid" | "review_not_applicable" | "recipient_required" | "recipient_invalid" | "recipient_not_applicable";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `authentication_required`, `wrong_environment`, `token_invalid`, `token_expired` */
            401: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "authentication_required" | "wrong_environment" | "token_invalid" | "token_expired";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `budget_used` */
            403: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "budget_used";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `idempotency_key_in_use`, `external_reference_exists` */
            409: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "idempotency_key_in_use" | "external_reference_exists";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "payload_too_large";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `idempotency_key_reused`, `client_unknown`, `file_rejected`, `review_not_available`, `recipient_client_unusable` */
            422: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "idempotency_key_reused" | "client_unknown" | "file_rejected" | "review_not_available" | "recipient_client_unusable";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "rate_limited";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "internal_error";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "service_unavailable";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getContractReview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The contract review's id. A malformed or unknown id, or one of another integration or environment, is 404 `not_found`. */
                id: components["schemas"]["ContractReviewId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contract review. */
            200: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContractReview"];
                };
            };
            /** @description `authentication_required`, `wrong_environment`, `token_invalid`, `token_expired` */
            401: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "authentication_required" | "wrong_environment" | "token_invalid" | "token_expired";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "not_found";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "rate_limited";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "internal_error";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "service_unavailable";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createContractReviewVersion: {
        parameters: {
            query?: never;
            header: {
                /** @description Chosen per request, such as a UUID; the same key with the same body answers the first response (`Idempotent-Replayed: true`), kept 24 hours. */
                "Idempotency-Key": components["parameters"]["Idempotency-Key"];
                /**
                 * @description RFC 9530: `sha-256=:<base64>:`, the SHA-256 of the whole body exactly as sent.
                 * @example sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:
                 */
                "Content-Digest": components["parameters"]["Content-Digest"];
            };
            path: {
                /** @description The contract review's id. A malformed or unknown id, or one of another integration or environment, is 404 `not_found`. */
                id: components["schemas"]["ContractReviewId"];
            };
            cookie?: never;
        };
        /** @description Exactly two parts, in either order. `Content-Digest` is the SHA-256 of this whole body as sent: build the body (or hash the file) first, then send it. */
        requestBody: {
            content: {
                "multipart/form-data": {
                    request: components["schemas"]["VersionRequest"];
                    /** @description The contract PDF, up to 104857600 bytes. */
                    file: string;
                };
            };
        };
        responses: {
            /** @description The file is byte-identical to the latest version: nothing made. */
            200: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContractReview"];
                };
            };
            /** @description Accepted: the new version is being read. */
            202: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContractReview"];
                };
            };
            /** @description `idempotency_key_required`, `idempotency_key_invalid`, `content_digest_required`, `content_digest_invalid`, `content_digest_mismatch`, `multipart_invalid`, `request_invalid`, `clients_invalid`, `based_on_version_required`, `based_on_version_invalid` */
            400: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "idempotency_key_required" | "idempotency_key_invalid" | "content_digest_required" | "content_digest_invalid" | "content_digest_mismatch" | "multipart_invalid" | "request_invalid" | "clients_invalid" | "based_on_version_required" | "based_on_version_invalid";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `authentication_required`, `wrong_environment`, `token_invalid`, `token_expired` */
            401: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "authentication_required" | "wrong_environment" | "token_invalid" | "token_expired";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `budget_used` */
            403: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "budget_used";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `not_found` */
            404: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "not_found";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `idempotency_key_in_use`, `stale_version` */
            409: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "idempotency_key_in_use" | "stale_version";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `payload_too_large` */
            413: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "payload_too_large";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `idempotency_key_reused`, `client_unknown`, `file_rejected` */
            422: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "idempotency_key_reused" | "client_unknown" | "file_rejected";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `rate_limited` */
            429: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "rate_limited";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "internal_error";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
            /** @description `service_unavailable` */
            503: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "service_unavailable";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document of the /v1 interface. */
            200: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description `internal_error` */
            500: {
                headers: {
                    "Service-Request-Id": components["headers"]["Service-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @enum {string} */
                            code: "internal_error";
                            /** @description What to send instead. */
                            message: string;
                        };
                    };
                };
            };
        };
    };
}
