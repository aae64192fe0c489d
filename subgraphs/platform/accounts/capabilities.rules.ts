// Account capabilities are not stored: they follow from the deployment model alone, so changing
// the model (or this table) changes them everywhere at once. Pure code, unit-testable.

export const DEPLOYMENT_MODELS = ['shared_cloud', 'dedicated_cloud', 'self_hosted', 'partner_cloud'] as const;
export type DeploymentModel = (typeof DEPLOYMENT_MODELS)[number];

export interface Capabilities {
  canExportData: boolean;
  canExportTerraform: boolean;
  canViewMonitoring: boolean;
  canInstantProvision: boolean;
  hasDedicatedSupport: boolean;
  hasSlaGuarantee: boolean;
  canCustomizeInfra: boolean;
  requiresVpn: boolean;
  dataResidencyConfigurable: boolean;
}

/**
 * Why each row reads as it does:
 * - shared_cloud: multi-tenant infrastructure we run; provisioning is instant, but nothing about the
 *   infrastructure (exports of the database or of Terraform, monitoring, region, SLA) is the customer's.
 * - dedicated_cloud: isolated infrastructure we run for one customer, with an SLA and dedicated support;
 *   the customer may take its data and the Terraform that describes its stack, see monitoring, pick the region.
 * - self_hosted: runs in the customer's own cloud account, reached over a VPN; the customer owns the
 *   infrastructure (customise, export, region) but we cannot guarantee an SLA on infrastructure we don't run.
 * - partner_cloud: a partner operates it (the partner gives support and SLA, and keeps the Terraform);
 *   the customer keeps data export, monitoring and region choice.
 */
export const CAPABILITIES: Readonly<Record<DeploymentModel, Readonly<Capabilities>>> = {
  shared_cloud: {
    canExportData: false,
    canExportTerraform: false,
    canViewMonitoring: false,
    canInstantProvision: true,
    hasDedicatedSupport: false,
    hasSlaGuarantee: false,
    canCustomizeInfra: false,
    requiresVpn: false,
    dataResidencyConfigurable: false,
  },
  dedicated_cloud: {
    canExportData: true,
    canExportTerraform: true,
    canViewMonitoring: true,
    canInstantProvision: false,
    hasDedicatedSupport: true,
    hasSlaGuarantee: true,
    canCustomizeInfra: true,
    requiresVpn: false,
    dataResidencyConfigurable: true,
  },
  self_hosted: {
    canExportData: true,
    canExportTerraform: true,
    canViewMonitoring: true,
    canInstantProvision: false,
    hasDedicatedSupport: true,
    hasSlaGuarantee: false,
    canCustomizeInfra: true,
    requiresVpn: true,
    dataResidencyConfigurable: true,
  },
  partner_cloud: {
    canExportData: true,
    canExportTerraform: false,
    canViewMonitoring: true,
    canInstantProvision: false,
    hasDedicatedSupport: false,
    hasSlaGuarantee: false,
    canCustomizeInfra: false,
    requiresVpn: false,
    dataResidencyConfigurable: true,
  },
};

export function capabilitiesOf(model: DeploymentModel): Capabilities {
  return { ...CAPABILITIES[model] };
}

/** Staging (test keys) exists only where the customer has its own environment; see CONTRACT.md. */
export function hasTestEnvironment(model: DeploymentModel): boolean {
  return model !== 'shared_cloud';
}

/** Key tier code embedded in API key values. */
export function keyTierOf(model: DeploymentModel): 'sh' | 'ent' | 'byok' {
  switch (model) {
    case 'shared_cloud':
      return 'sh';
    case 'dedicated_cloud':
    case 'self_hosted':
      return 'ent';
    case 'partner_cloud':
      return 'byok';
  }
}
