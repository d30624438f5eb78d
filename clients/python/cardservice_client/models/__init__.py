"""Contains all the data models used in inputs/outputs"""

from .account_balance import AccountBalance
from .account_counts import AccountCounts
from .account_counts_by_status import AccountCountsByStatus
from .account_record import AccountRecord
from .account_record_status import AccountRecordStatus
from .accounts_page import AccountsPage
from .acs_code_request import AcsCodeRequest
from .activate_card_request import ActivateCardRequest
from .add_fx_rate_request import AddFxRateRequest
from .amount_difference import AmountDifference
from .attachment_record import AttachmentRecord
from .attachment_record_type import AttachmentRecordType
from .attachment_upload import AttachmentUpload
from .attachment_upload_type import AttachmentUploadType
from .attempt_record import AttemptRecord
from .audit_actor import AuditActor
from .audit_log_filters import AuditLogFilters
from .audit_log_filters_actor_type import AuditLogFiltersActorType
from .audit_record import AuditRecord
from .audit_record_details_type_0 import AuditRecordDetailsType0
from .authorization_endpoint_record import AuthorizationEndpointRecord
from .authorization_endpoint_record_on_timeout import AuthorizationEndpointRecordOnTimeout
from .authorization_endpoint_request import AuthorizationEndpointRequest
from .authorization_endpoint_request_on_timeout import AuthorizationEndpointRequestOnTimeout
from .authorization_request import AuthorizationRequest
from .authorization_request_force_decline_type_0 import AuthorizationRequestForceDeclineType0
from .auto_replenish import AutoReplenish
from .auto_replenish_in import AutoReplenishIn
from .bin_locked import BinLocked
from .bin_record import BinRecord
from .bin_record_status import BinRecordStatus
from .blocked_tag_record import BlockedTagRecord
from .blocked_tag_record_restriction import BlockedTagRecordRestriction
from .budget_record import BudgetRecord
from .buy_cards_request import BuyCardsRequest
from .buy_cards_request_card_type import BuyCardsRequestCardType
from .buy_cards_request_form import BuyCardsRequestForm
from .buy_cards_result import BuyCardsResult
from .capture_request import CaptureRequest
from .card_change_request import CardChangeRequest
from .card_change_request_status import CardChangeRequestStatus
from .card_counts import CardCounts
from .card_details import CardDetails
from .card_holder import CardHolder
from .card_list import CardList
from .card_policy_record import CardPolicyRecord
from .card_policy_record_member_cards import CardPolicyRecordMemberCards
from .card_policy_request import CardPolicyRequest
from .card_policy_request_member_cards import CardPolicyRequestMemberCards
from .card_record import CardRecord
from .card_record_card_type import CardRecordCardType
from .card_record_closed_reason_type_0 import CardRecordClosedReasonType0
from .card_record_form import CardRecordForm
from .card_record_frozen_reason_type_0 import CardRecordFrozenReasonType0
from .card_record_status import CardRecordStatus
from .card_testing import CardTesting
from .cardservice_operator_books_routes_currency_balances import CardserviceOperatorBooksRoutesCurrencyBalances
from .cardservice_users_schemas_currency_balances import CardserviceUsersSchemasCurrencyBalances
from .change_account_request import ChangeAccountRequest
from .change_account_request_status import ChangeAccountRequestStatus
from .change_bin_request import ChangeBinRequest
from .change_bin_request_status_type_0 import ChangeBinRequestStatusType0
from .change_program_request import ChangeProgramRequest
from .change_user_request import ChangeUserRequest
from .change_user_request_status_type_0 import ChangeUserRequestStatusType0
from .charge import Charge
from .class_balance import ClassBalance
from .clearing_data import ClearingData
from .clearing_report import ClearingReport
from .confirm_topup_request import ConfirmTopupRequest
from .count_amount import CountAmount
from .create_account_request import CreateAccountRequest
from .create_bin_request import CreateBinRequest
from .create_bin_request_brand import CreateBinRequestBrand
from .create_bin_request_status import CreateBinRequestStatus
from .create_program_request import CreateProgramRequest
from .create_team_request import CreateTeamRequest
from .create_team_request_kind import CreateTeamRequestKind
from .create_user_request import CreateUserRequest
from .create_user_request_role_type_0 import CreateUserRequestRoleType0
from .decline_request import DeclineRequest
from .deposit_request import DepositRequest
from .dictionary_record import DictionaryRecord
from .dispute_record import DisputeRecord
from .dispute_record_reason import DisputeRecordReason
from .dispute_record_status import DisputeRecordStatus
from .done import Done
from .endpoint_create import EndpointCreate
from .endpoint_create_event_types_type_0_item import EndpointCreateEventTypesType0Item
from .endpoint_record import EndpointRecord
from .endpoint_record_event_types_type_0_item import EndpointRecordEventTypesType0Item
from .endpoint_update import EndpointUpdate
from .endpoint_update_event_types_type_0_item import EndpointUpdateEventTypesType0Item
from .envelope_account_record import EnvelopeAccountRecord
from .envelope_attachment_record import EnvelopeAttachmentRecord
from .envelope_authorization_endpoint_record import EnvelopeAuthorizationEndpointRecord
from .envelope_bin_record import EnvelopeBinRecord
from .envelope_budget_record import EnvelopeBudgetRecord
from .envelope_buy_cards_result import EnvelopeBuyCardsResult
from .envelope_card_details import EnvelopeCardDetails
from .envelope_card_policy_record import EnvelopeCardPolicyRecord
from .envelope_card_record import EnvelopeCardRecord
from .envelope_card_testing import EnvelopeCardTesting
from .envelope_clearing_report import EnvelopeClearingReport
from .envelope_dispute_record import EnvelopeDisputeRecord
from .envelope_endpoint_record import EnvelopeEndpointRecord
from .envelope_event_record import EnvelopeEventRecord
from .envelope_fx_rate_entry import EnvelopeFxRateEntry
from .envelope_health_record import EnvelopeHealthRecord
from .envelope_issued_token import EnvelopeIssuedToken
from .envelope_list_bin_record import EnvelopeListBinRecord
from .envelope_list_blocked_tag_record import EnvelopeListBlockedTagRecord
from .envelope_list_budget_record import EnvelopeListBudgetRecord
from .envelope_list_currency_balances import EnvelopeListCurrencyBalances
from .envelope_list_dictionary_record import EnvelopeListDictionaryRecord
from .envelope_list_fee_record import EnvelopeListFeeRecord
from .envelope_list_fx_rate_record import EnvelopeListFxRateRecord
from .envelope_list_missing_receipt import EnvelopeListMissingReceipt
from .envelope_list_payment_currency_record import EnvelopeListPaymentCurrencyRecord
from .envelope_list_settlement import EnvelopeListSettlement
from .envelope_list_spend_row import EnvelopeListSpendRow
from .envelope_list_tag_record import EnvelopeListTagRecord
from .envelope_list_three_ds_record import EnvelopeListThreeDsRecord
from .envelope_list_token_record import EnvelopeListTokenRecord
from .envelope_mfa_code_record import EnvelopeMfaCodeRecord
from .envelope_notifications_record import EnvelopeNotificationsRecord
from .envelope_pin_key import EnvelopePinKey
from .envelope_program_endpoint_record import EnvelopeProgramEndpointRecord
from .envelope_program_fees_record import EnvelopeProgramFeesRecord
from .envelope_program_record import EnvelopeProgramRecord
from .envelope_queued import EnvelopeQueued
from .envelope_ready_record import EnvelopeReadyRecord
from .envelope_receipt_policy_record import EnvelopeReceiptPolicyRecord
from .envelope_sign_in_accepted import EnvelopeSignInAccepted
from .envelope_sign_in_link import EnvelopeSignInLink
from .envelope_team_request_record import EnvelopeTeamRequestRecord
from .envelope_three_ds_record import EnvelopeThreeDsRecord
from .envelope_token_record import EnvelopeTokenRecord
from .envelope_topup_record import EnvelopeTopupRecord
from .envelope_transaction_record import EnvelopeTransactionRecord
from .envelope_user_record import EnvelopeUserRecord
from .envelope_user_summary import EnvelopeUserSummary
from .error_body import ErrorBody
from .error_body_errors_type_0 import ErrorBodyErrorsType0
from .event_record import EventRecord
from .event_record_data import EventRecordData
from .event_record_type import EventRecordType
from .events_envelope import EventsEnvelope
from .events_meta import EventsMeta
from .export_transactions_csv_filters import ExportTransactionsCsvFilters
from .export_transactions_csv_filters_status import ExportTransactionsCsvFiltersStatus
from .export_transactions_csv_filters_type import ExportTransactionsCsvFiltersType
from .favorite_request import FavoriteRequest
from .fee_record import FeeRecord
from .fee_record_kind import FeeRecordKind
from .fulfilment import Fulfilment
from .fulfilment_request import FulfilmentRequest
from .fulfilment_request_status import FulfilmentRequestStatus
from .fulfilment_status import FulfilmentStatus
from .fx_rate_entry import FxRateEntry
from .fx_rate_record import FxRateRecord
from .get_user_spend_group_by import GetUserSpendGroupBy
from .get_user_spend_type_type_0 import GetUserSpendTypeType0
from .health_record import HealthRecord
from .history_step import HistoryStep
from .history_step_status import HistoryStepStatus
from .holder_address import HolderAddress
from .holder_address_in import HolderAddressIn
from .increment_request import IncrementRequest
from .issue_token_request import IssueTokenRequest
from .issued_token import IssuedToken
from .link_receipt_request import LinkReceiptRequest
from .list_accounts_filters import ListAccountsFilters
from .list_accounts_filters_status import ListAccountsFiltersStatus
from .list_accounts_filters_type import ListAccountsFiltersType
from .list_attachments_filters import ListAttachmentsFilters
from .list_attachments_filters_type import ListAttachmentsFiltersType
from .list_cards_filters import ListCardsFilters
from .list_cards_filters_status import ListCardsFiltersStatus
from .list_disputes_filters import ListDisputesFilters
from .list_disputes_filters_status import ListDisputesFiltersStatus
from .list_events_filters import ListEventsFilters
from .list_events_filters_type import ListEventsFiltersType
from .list_operator_accounts_filters import ListOperatorAccountsFilters
from .list_operator_accounts_filters_status import ListOperatorAccountsFiltersStatus
from .list_operator_cards_filters import ListOperatorCardsFilters
from .list_operator_cards_filters_status import ListOperatorCardsFiltersStatus
from .list_operator_fx_rates_filters import ListOperatorFxRatesFilters
from .list_operator_transactions_filters import ListOperatorTransactionsFilters
from .list_operator_transactions_filters_status import ListOperatorTransactionsFiltersStatus
from .list_operator_transactions_filters_type import ListOperatorTransactionsFiltersType
from .list_team_requests_filters import ListTeamRequestsFilters
from .list_team_requests_filters_status import ListTeamRequestsFiltersStatus
from .list_transactions_filters import ListTransactionsFilters
from .list_transactions_filters_status import ListTransactionsFiltersStatus
from .list_transactions_filters_type import ListTransactionsFiltersType
from .list_users_filters import ListUsersFilters
from .list_users_filters_status import ListUsersFiltersStatus
from .member_ref import MemberRef
from .merchant import Merchant
from .merchant_blocked import MerchantBlocked
from .mfa_code_record import MfaCodeRecord
from .missing_receipt import MissingReceipt
from .money_request import MoneyRequest
from .network_data import NetworkData
from .notifications_record import NotificationsRecord
from .notifications_request import NotificationsRequest
from .open_dispute_request import OpenDisputeRequest
from .open_dispute_request_reason import OpenDisputeRequestReason
from .operator_disputes_filters import OperatorDisputesFilters
from .operator_disputes_filters_status import OperatorDisputesFiltersStatus
from .outgoing_record import OutgoingRecord
from .outgoing_request import OutgoingRequest
from .owner import Owner
from .page_meta import PageMeta
from .paged_envelope_accounts_page import PagedEnvelopeAccountsPage
from .paged_envelope_card_list import PagedEnvelopeCardList
from .paged_envelope_list_account_record import PagedEnvelopeListAccountRecord
from .paged_envelope_list_attachment_record import PagedEnvelopeListAttachmentRecord
from .paged_envelope_list_attempt_record import PagedEnvelopeListAttemptRecord
from .paged_envelope_list_audit_record import PagedEnvelopeListAuditRecord
from .paged_envelope_list_card_record import PagedEnvelopeListCardRecord
from .paged_envelope_list_clearing_report import PagedEnvelopeListClearingReport
from .paged_envelope_list_dispute_record import PagedEnvelopeListDisputeRecord
from .paged_envelope_list_endpoint_record import PagedEnvelopeListEndpointRecord
from .paged_envelope_list_fx_rate_entry import PagedEnvelopeListFxRateEntry
from .paged_envelope_list_outgoing_record import PagedEnvelopeListOutgoingRecord
from .paged_envelope_list_program_endpoint_record import PagedEnvelopeListProgramEndpointRecord
from .paged_envelope_list_program_record import PagedEnvelopeListProgramRecord
from .paged_envelope_list_team_request_record import PagedEnvelopeListTeamRequestRecord
from .paged_envelope_list_topup_record import PagedEnvelopeListTopupRecord
from .paged_envelope_list_transaction_record import PagedEnvelopeListTransactionRecord
from .paged_envelope_list_user_record import PagedEnvelopeListUserRecord
from .paged_envelope_team_card_list import PagedEnvelopeTeamCardList
from .pay_to_line import PayToLine
from .payment_currency_record import PaymentCurrencyRecord
from .pin_key import PinKey
from .pre_arbitration_answers import PreArbitrationAnswers
from .presentments import Presentments
from .program_endpoint_create import ProgramEndpointCreate
from .program_endpoint_create_event_types_type_0_item_type_0 import ProgramEndpointCreateEventTypesType0ItemType0
from .program_endpoint_create_event_types_type_0_item_type_1 import ProgramEndpointCreateEventTypesType0ItemType1
from .program_endpoint_record import ProgramEndpointRecord
from .program_endpoint_record_event_types_type_0_item_type_0 import ProgramEndpointRecordEventTypesType0ItemType0
from .program_endpoint_record_event_types_type_0_item_type_1 import ProgramEndpointRecordEventTypesType0ItemType1
from .program_endpoint_update import ProgramEndpointUpdate
from .program_endpoint_update_event_types_type_0_item_type_0 import ProgramEndpointUpdateEventTypesType0ItemType0
from .program_endpoint_update_event_types_type_0_item_type_1 import ProgramEndpointUpdateEventTypesType0ItemType1
from .program_fees_record import ProgramFeesRecord
from .program_fees_request import ProgramFeesRequest
from .program_record import ProgramRecord
from .queued import Queued
from .ready_record import ReadyRecord
from .receipt_policy_record import ReceiptPolicyRecord
from .receipt_policy_request import ReceiptPolicyRequest
from .refund_request import RefundRequest
from .replace_card_request import ReplaceCardRequest
from .replace_card_request_reason import ReplaceCardRequestReason
from .replay_request import ReplayRequest
from .report_keyset_meta import ReportKeysetMeta
from .report_page import ReportPage
from .report_page_meta import ReportPageMeta
from .report_total import ReportTotal
from .representment import Representment
from .representment_exception import RepresentmentException
from .representments import Representments
from .resolve_dispute_request import ResolveDisputeRequest
from .resolve_dispute_request_outcome import ResolveDisputeRequestOutcome
from .reveal_request import RevealRequest
from .sent_step import SentStep
from .set_budget_request import SetBudgetRequest
from .set_pin_request import SetPinRequest
from .settlement import Settlement
from .shipping_address import ShippingAddress
from .shipping_in import ShippingIn
from .sign_in_accepted import SignInAccepted
from .sign_in_link import SignInLink
from .sign_in_request import SignInRequest
from .sort_request import SortRequest
from .spend import Spend
from .spend_row import SpendRow
from .spending_controls import SpendingControls
from .spending_controls_record import SpendingControlsRecord
from .tag_record import TagRecord
from .team_card_list import TeamCardList
from .team_card_record import TeamCardRecord
from .team_card_record_card_type import TeamCardRecordCardType
from .team_card_record_closed_reason_type_0 import TeamCardRecordClosedReasonType0
from .team_card_record_form import TeamCardRecordForm
from .team_card_record_frozen_reason_type_0 import TeamCardRecordFrozenReasonType0
from .team_card_record_status import TeamCardRecordStatus
from .team_ref import TeamRef
from .team_request_record import TeamRequestRecord
from .team_request_record_details import TeamRequestRecordDetails
from .team_request_record_kind import TeamRequestRecordKind
from .team_request_record_result_type_0 import TeamRequestRecordResultType0
from .team_request_record_status import TeamRequestRecordStatus
from .three_ds_record import ThreeDsRecord
from .three_ds_request import ThreeDsRequest
from .token_record import TokenRecord
from .token_record_status import TokenRecordStatus
from .token_record_wallet import TokenRecordWallet
from .token_use import TokenUse
from .token_use_wallet import TokenUseWallet
from .topup_record import TopupRecord
from .topup_record_status import TopupRecordStatus
from .topup_request import TopupRequest
from .total import Total
from .transaction_record import TransactionRecord
from .transaction_record_channel import TransactionRecordChannel
from .transaction_record_decision_type_0 import TransactionRecordDecisionType0
from .transaction_record_direction import TransactionRecordDirection
from .transaction_record_status import TransactionRecordStatus
from .transaction_record_type import TransactionRecordType
from .unmatched import Unmatched
from .user_record import UserRecord
from .user_record_status import UserRecordStatus
from .user_ref import UserRef
from .user_summary import UserSummary

__all__ = (
    "AccountBalance",
    "AccountCounts",
    "AccountCountsByStatus",
    "AccountRecord",
    "AccountRecordStatus",
    "AccountsPage",
    "AcsCodeRequest",
    "ActivateCardRequest",
    "AddFxRateRequest",
    "AmountDifference",
    "AttachmentRecord",
    "AttachmentRecordType",
    "AttachmentUpload",
    "AttachmentUploadType",
    "AttemptRecord",
    "AuditActor",
    "AuditLogFilters",
    "AuditLogFiltersActorType",
    "AuditRecord",
    "AuditRecordDetailsType0",
    "AuthorizationEndpointRecord",
    "AuthorizationEndpointRecordOnTimeout",
    "AuthorizationEndpointRequest",
    "AuthorizationEndpointRequestOnTimeout",
    "AuthorizationRequest",
    "AuthorizationRequestForceDeclineType0",
    "AutoReplenish",
    "AutoReplenishIn",
    "BinLocked",
    "BinRecord",
    "BinRecordStatus",
    "BlockedTagRecord",
    "BlockedTagRecordRestriction",
    "BudgetRecord",
    "BuyCardsRequest",
    "BuyCardsRequestCardType",
    "BuyCardsRequestForm",
    "BuyCardsResult",
    "CaptureRequest",
    "CardChangeRequest",
    "CardChangeRequestStatus",
    "CardCounts",
    "CardDetails",
    "CardHolder",
    "CardList",
    "CardPolicyRecord",
    "CardPolicyRecordMemberCards",
    "CardPolicyRequest",
    "CardPolicyRequestMemberCards",
    "CardRecord",
    "CardRecordCardType",
    "CardRecordClosedReasonType0",
    "CardRecordForm",
    "CardRecordFrozenReasonType0",
    "CardRecordStatus",
    "CardserviceOperatorBooksRoutesCurrencyBalances",
    "CardserviceUsersSchemasCurrencyBalances",
    "CardTesting",
    "ChangeAccountRequest",
    "ChangeAccountRequestStatus",
    "ChangeBinRequest",
    "ChangeBinRequestStatusType0",
    "ChangeProgramRequest",
    "ChangeUserRequest",
    "ChangeUserRequestStatusType0",
    "Charge",
    "ClassBalance",
    "ClearingData",
    "ClearingReport",
    "ConfirmTopupRequest",
    "CountAmount",
    "CreateAccountRequest",
    "CreateBinRequest",
    "CreateBinRequestBrand",
    "CreateBinRequestStatus",
    "CreateProgramRequest",
    "CreateTeamRequest",
    "CreateTeamRequestKind",
    "CreateUserRequest",
    "CreateUserRequestRoleType0",
    "DeclineRequest",
    "DepositRequest",
    "DictionaryRecord",
    "DisputeRecord",
    "DisputeRecordReason",
    "DisputeRecordStatus",
    "Done",
    "EndpointCreate",
    "EndpointCreateEventTypesType0Item",
    "EndpointRecord",
    "EndpointRecordEventTypesType0Item",
    "EndpointUpdate",
    "EndpointUpdateEventTypesType0Item",
    "EnvelopeAccountRecord",
    "EnvelopeAttachmentRecord",
    "EnvelopeAuthorizationEndpointRecord",
    "EnvelopeBinRecord",
    "EnvelopeBudgetRecord",
    "EnvelopeBuyCardsResult",
    "EnvelopeCardDetails",
    "EnvelopeCardPolicyRecord",
    "EnvelopeCardRecord",
    "EnvelopeCardTesting",
    "EnvelopeClearingReport",
    "EnvelopeDisputeRecord",
    "EnvelopeEndpointRecord",
    "EnvelopeEventRecord",
    "EnvelopeFxRateEntry",
    "EnvelopeHealthRecord",
    "EnvelopeIssuedToken",
    "EnvelopeListBinRecord",
    "EnvelopeListBlockedTagRecord",
    "EnvelopeListBudgetRecord",
    "EnvelopeListCurrencyBalances",
    "EnvelopeListDictionaryRecord",
    "EnvelopeListFeeRecord",
    "EnvelopeListFxRateRecord",
    "EnvelopeListMissingReceipt",
    "EnvelopeListPaymentCurrencyRecord",
    "EnvelopeListSettlement",
    "EnvelopeListSpendRow",
    "EnvelopeListTagRecord",
    "EnvelopeListThreeDsRecord",
    "EnvelopeListTokenRecord",
    "EnvelopeMfaCodeRecord",
    "EnvelopeNotificationsRecord",
    "EnvelopePinKey",
    "EnvelopeProgramEndpointRecord",
    "EnvelopeProgramFeesRecord",
    "EnvelopeProgramRecord",
    "EnvelopeQueued",
    "EnvelopeReadyRecord",
    "EnvelopeReceiptPolicyRecord",
    "EnvelopeSignInAccepted",
    "EnvelopeSignInLink",
    "EnvelopeTeamRequestRecord",
    "EnvelopeThreeDsRecord",
    "EnvelopeTokenRecord",
    "EnvelopeTopupRecord",
    "EnvelopeTransactionRecord",
    "EnvelopeUserRecord",
    "EnvelopeUserSummary",
    "ErrorBody",
    "ErrorBodyErrorsType0",
    "EventRecord",
    "EventRecordData",
    "EventRecordType",
    "EventsEnvelope",
    "EventsMeta",
    "ExportTransactionsCsvFilters",
    "ExportTransactionsCsvFiltersStatus",
    "ExportTransactionsCsvFiltersType",
    "FavoriteRequest",
    "FeeRecord",
    "FeeRecordKind",
    "Fulfilment",
    "FulfilmentRequest",
    "FulfilmentRequestStatus",
    "FulfilmentStatus",
    "FxRateEntry",
    "FxRateRecord",
    "GetUserSpendGroupBy",
    "GetUserSpendTypeType0",
    "HealthRecord",
    "HistoryStep",
    "HistoryStepStatus",
    "HolderAddress",
    "HolderAddressIn",
    "IncrementRequest",
    "IssuedToken",
    "IssueTokenRequest",
    "LinkReceiptRequest",
    "ListAccountsFilters",
    "ListAccountsFiltersStatus",
    "ListAccountsFiltersType",
    "ListAttachmentsFilters",
    "ListAttachmentsFiltersType",
    "ListCardsFilters",
    "ListCardsFiltersStatus",
    "ListDisputesFilters",
    "ListDisputesFiltersStatus",
    "ListEventsFilters",
    "ListEventsFiltersType",
    "ListOperatorAccountsFilters",
    "ListOperatorAccountsFiltersStatus",
    "ListOperatorCardsFilters",
    "ListOperatorCardsFiltersStatus",
    "ListOperatorFxRatesFilters",
    "ListOperatorTransactionsFilters",
    "ListOperatorTransactionsFiltersStatus",
    "ListOperatorTransactionsFiltersType",
    "ListTeamRequestsFilters",
    "ListTeamRequestsFiltersStatus",
    "ListTransactionsFilters",
    "ListTransactionsFiltersStatus",
    "ListTransactionsFiltersType",
    "ListUsersFilters",
    "ListUsersFiltersStatus",
    "MemberRef",
    "Merchant",
    "MerchantBlocked",
    "MfaCodeRecord",
    "MissingReceipt",
    "MoneyRequest",
    "NetworkData",
    "NotificationsRecord",
    "NotificationsRequest",
    "OpenDisputeRequest",
    "OpenDisputeRequestReason",
    "OperatorDisputesFilters",
    "OperatorDisputesFiltersStatus",
    "OutgoingRecord",
    "OutgoingRequest",
    "Owner",
    "PagedEnvelopeAccountsPage",
    "PagedEnvelopeCardList",
    "PagedEnvelopeListAccountRecord",
    "PagedEnvelopeListAttachmentRecord",
    "PagedEnvelopeListAttemptRecord",
    "PagedEnvelopeListAuditRecord",
    "PagedEnvelopeListCardRecord",
    "PagedEnvelopeListClearingReport",
    "PagedEnvelopeListDisputeRecord",
    "PagedEnvelopeListEndpointRecord",
    "PagedEnvelopeListFxRateEntry",
    "PagedEnvelopeListOutgoingRecord",
    "PagedEnvelopeListProgramEndpointRecord",
    "PagedEnvelopeListProgramRecord",
    "PagedEnvelopeListTeamRequestRecord",
    "PagedEnvelopeListTopupRecord",
    "PagedEnvelopeListTransactionRecord",
    "PagedEnvelopeListUserRecord",
    "PagedEnvelopeTeamCardList",
    "PageMeta",
    "PaymentCurrencyRecord",
    "PayToLine",
    "PinKey",
    "PreArbitrationAnswers",
    "Presentments",
    "ProgramEndpointCreate",
    "ProgramEndpointCreateEventTypesType0ItemType0",
    "ProgramEndpointCreateEventTypesType0ItemType1",
    "ProgramEndpointRecord",
    "ProgramEndpointRecordEventTypesType0ItemType0",
    "ProgramEndpointRecordEventTypesType0ItemType1",
    "ProgramEndpointUpdate",
    "ProgramEndpointUpdateEventTypesType0ItemType0",
    "ProgramEndpointUpdateEventTypesType0ItemType1",
    "ProgramFeesRecord",
    "ProgramFeesRequest",
    "ProgramRecord",
    "Queued",
    "ReadyRecord",
    "ReceiptPolicyRecord",
    "ReceiptPolicyRequest",
    "RefundRequest",
    "ReplaceCardRequest",
    "ReplaceCardRequestReason",
    "ReplayRequest",
    "ReportKeysetMeta",
    "ReportPage",
    "ReportPageMeta",
    "ReportTotal",
    "Representment",
    "RepresentmentException",
    "Representments",
    "ResolveDisputeRequest",
    "ResolveDisputeRequestOutcome",
    "RevealRequest",
    "SentStep",
    "SetBudgetRequest",
    "SetPinRequest",
    "Settlement",
    "ShippingAddress",
    "ShippingIn",
    "SignInAccepted",
    "SignInLink",
    "SignInRequest",
    "SortRequest",
    "Spend",
    "SpendingControls",
    "SpendingControlsRecord",
    "SpendRow",
    "TagRecord",
    "TeamCardList",
    "TeamCardRecord",
    "TeamCardRecordCardType",
    "TeamCardRecordClosedReasonType0",
    "TeamCardRecordForm",
    "TeamCardRecordFrozenReasonType0",
    "TeamCardRecordStatus",
    "TeamRef",
    "TeamRequestRecord",
    "TeamRequestRecordDetails",
    "TeamRequestRecordKind",
    "TeamRequestRecordResultType0",
    "TeamRequestRecordStatus",
    "ThreeDsRecord",
    "ThreeDsRequest",
    "TokenRecord",
    "TokenRecordStatus",
    "TokenRecordWallet",
    "TokenUse",
    "TokenUseWallet",
    "TopupRecord",
    "TopupRecordStatus",
    "TopupRequest",
    "Total",
    "TransactionRecord",
    "TransactionRecordChannel",
    "TransactionRecordDecisionType0",
    "TransactionRecordDirection",
    "TransactionRecordStatus",
    "TransactionRecordType",
    "Unmatched",
    "UserRecord",
    "UserRecordStatus",
    "UserRef",
    "UserSummary",
)
