//! The two prompts (issue 36): recipes that use the tools in the cheap order: plan first,
//! what is owned first, confirm only what is new, reveal last.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{PromptMessage, Role};
use rmcp::{prompt, prompt_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::server::Prospect;

/// The customers to find lookalikes of.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct LookalikeArgs {
    /// Your customers' domains, comma-separated (at most 10 are seeds).
    pub customers: String,
    /// The job titles of the decision makers, comma-separated (default: Head of Sales, VP Sales).
    #[serde(default)]
    pub titles: Option<String>,
}

/// The list whose contacts to refresh.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct RefreshArgs {
    /// The name of a contact list.
    pub list: String,
}

#[prompt_router(vis = "pub(crate)")]
impl Prospect {
    /// Lookalikes of my customers and their decision makers.
    #[prompt(
        name = "lookalikes_of_my_customers",
        description = "Find companies like my customers and the decision makers there, spending as little as possible."
    )]
    async fn lookalikes(&self, Parameters(a): Parameters<LookalikeArgs>) -> Vec<PromptMessage> {
        let titles = a
            .titles
            .unwrap_or_else(|| "Head of Sales, VP Sales".to_string());
        vec![PromptMessage::new_text(
            Role::User,
            format!(
                "Find companies that look like my customers ({customers}) and the decision makers \
                 there ({titles}). Work in the cheap order:\n\
                 1. suppression_check the customers: suppressed ones are never paid for.\n\
                 2. search_companies with filters {{\"companiesFilters\": {{\"lookalikeDomains\": \
                 [up to 10 of the customers]}}}} and limit 25. If it answers needs_confirmation, \
                 show me the plan (owned, to buy, cost) and ask before calling again with its plan_id.\n\
                 3. search_people with the found domains in companiesFilters.includeDomains and \
                 peopleFilters.jobTitles [{titles}], limit 25, the same way.\n\
                 4. Only for the people I pick, reveal_emails; what the store already holds costs 0.\n\
                 Say after each step what it spent and what is left of the session.",
                customers = a.customers
            ),
        )]
    }

    /// Refresh the contacts of a list.
    #[prompt(
        name = "refresh_list_contacts",
        description = "Bring a contact list's emails up to date, paying only for contacts not yet revealed."
    )]
    async fn refresh(&self, Parameters(a): Parameters<RefreshArgs>) -> Vec<PromptMessage> {
        vec![PromptMessage::new_text(
            Role::User,
            format!(
                "Refresh the contacts of my list {list}:\n\
                 1. Read the list with the lists tool (name {list}): its members with the contacts \
                 the store holds, at 0 credits.\n\
                 2. Take only the members with no email; reveal_emails for their ids. If it \
                 answers needs_confirmation, show me the plan and ask before confirming.\n\
                 3. Report how many were revealed, from the store, and what it spent.",
                list = a.list
            ),
        )]
    }
}
